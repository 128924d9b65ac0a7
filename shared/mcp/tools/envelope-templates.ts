import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { bundleStatus, type TBundleAnswer } from '../bundle-summary';
import { paginationOf, type TEsignApi } from '../esign-api';
import { zApiId } from '../ids';
import { asTool, MAKES_SOMETHING, toolResult } from '../tool-result';
import { packetOf, ZRequestIdSchema, ZSignerSchema } from './send-document';

interface TEnvelopeTemplateAnswer {
  id: string;
  name: string;
  description: string;
  label: string;
  documents: { key: string; name: string }[];
  signers: { key: string; label: string; order: number }[];
}

export function registerListEnvelopeTemplates(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'list_envelope_templates',
    {
      title: 'List envelope templates',
      description:
        'Lists the envelope templates the account may use: ready-made sets of documents with ' +
        'fields already placed for signer roles. Each shows its id, name, documents and the ' +
        'signer roles (role keys) that send_from_envelope_template needs a signer for.',
      inputSchema: {
        page: z.number().int().min(1).optional().describe('Page number, from 1.'),
        per_page: z.number().int().min(1).max(100).optional().describe('Templates per page (default 20).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ page, per_page }) =>
      asTool(async () => {
        const res = await api.call('GET', '/envelope-templates/', {
          query: { page, per_page: per_page ?? 20 },
        });
        const templates = (res.body as TEnvelopeTemplateAnswer[]).map((t) => ({
          template_id: t.id,
          name: t.name,
          description: t.description,
          default_label: t.label,
          documents: t.documents.map((d) => d.name || d.key),
          signer_roles: t.signers.map((s) => ({ role: s.key, label: s.label, order: s.order })),
        }));
        const paging = paginationOf(res.headers, templates.length);
        return toolResult(
          `${paging.total} envelope template(s); page ${paging.page} of ${paging.total_pages}.`,
          {
            ...paging,
            templates,
          },
        );
      }),
  );
}

export function registerSendFromEnvelopeTemplate(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'send_from_envelope_template',
    {
      title: 'Send from an envelope template',
      description:
        'Creates and sends a bundle from an envelope template: one signer for each of the ' +
        "template's signer roles (see list_envelope_templates), each with a name and an email " +
        'or phone. Optional data prefills fields of the documents by field key or by the label ' +
        'the document shows (field_values: by key only).',
      inputSchema: {
        template_id: zApiId('The template_id from list_envelope_templates.', 'list_envelope_templates'),
        signers: z
          .array(
            ZSignerSchema.extend({ role: z.string().min(1).max(20).describe('The signer role (its key).') }),
          )
          .min(1)
          .max(20)
          .describe('One signer per signer role of the template.'),
        label: z.string().max(255).optional().describe("A title for the bundle (default: the template's)."),
        message: z
          .string()
          .max(5000)
          .optional()
          .describe('A message to the signers, in the signing request email.'),
        field_values: z
          .array(z.object({ key: z.string().min(1).max(100), value: z.string().max(10_000) }))
          .optional()
          .describe('Initial values of document fields, by field key.'),
        data: z
          .record(z.string().min(1).max(255), z.string().max(10_000))
          .optional()
          .describe(
            'Values of document fields by field key or label, e.g. {"Monthly rent": "1450"}. A name no ' +
              'field has is refused, as is a value the field does not take; read-only fields need one.',
          ),
        is_test: z
          .boolean()
          .optional()
          .describe('A test bundle: marked as not legally binding, not counted.'),
        request_id: ZRequestIdSchema,
      },
      annotations: MAKES_SOMETHING,
    },
    (input) =>
      asTool(async () => {
        const body = {
          envelope_template: {
            template_id: input.template_id,
            ...(input.field_values
              ? { field_values: input.field_values.map((f) => ({ key: f.key, initial_value: f.value })) }
              : {}),
          },
          packets: input.signers.map((s) => packetOf(s, s.role)),
          ...(input.label !== undefined ? { label: input.label } : {}),
          ...(input.data !== undefined ? { data: input.data } : {}),
          ...(input.message !== undefined ? { email_message: input.message } : {}),
          ...(input.is_test !== undefined ? { is_test: input.is_test } : {}),
        };
        const created = await api.call('POST', '/bundles/create_from_envelope_template/', {
          json: body,
          ...(input.request_id ? { idempotencyKey: input.request_id } : {}),
        });
        const b = created.body as TBundleAnswer;
        return toolResult(
          `Bundle ${b.id} created from ${input.template_id} (status ${b.status}).`,
          bundleStatus(b),
        );
      }),
  );
}
