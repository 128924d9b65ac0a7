import { randomUUID } from 'node:crypto';
import type { TRuntime } from '#infra/local/runtime';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';

/**
 * A document template written straight into the table (its PDF is not stored): enough for an
 * envelope template to name it. Bundles made from it need a real one (`POST /templates/`).
 */
export async function seedDocTemplate(
  runtime: TRuntime,
  accountId = runtime.demo.accountId,
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await createDocTemplateStore(runtime.db, runtime.config.tableName).save(
    {
      id,
      accountId,
      name: 'Seeded template',
      isShared: true,
      owner: runtime.demo.userId,
      document: {
        name: 'seeded.pdf',
        blobKey: `seeded/${id}.pdf`,
        sha256: '0'.repeat(64),
        size: 1,
        pages: [],
      },
      roles: [{ key: 'signer', label: 'Signer' }],
      fields: [],
      created: now,
      updated: now,
      version: 1,
    },
    undefined,
  );
  return id;
}

/** An envelope template body naming the given document templates, one signer role. */
export function anEnvelopeTemplate(docTemplateIds: string[], overrides: Record<string, unknown> = {}) {
  return {
    name: 'Onboarding',
    description: 'New hire paperwork',
    documents: docTemplateIds.map((template_id, i) => ({
      key: `doc-${i + 1}`,
      template_id,
      name: `Doc ${i + 1}`,
    })),
    signers: [{ key: 'signer', label: 'Employee', order: 0 }],
    email_subject: 'Please sign',
    email_message: 'Welcome aboard',
    in_order: false,
    ...overrides,
  };
}
