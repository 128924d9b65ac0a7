import type * as z from 'zod';
import { ZDocTemplateCreateSchema, type ZTemplateRoleSchema } from '#shared/schemas/doc-template';
import { buildDocuments } from '../bundles/build-documents';
import { createOnce } from '../create-once';
import { derivedUuid } from '../derived-ids';
import { type TFieldError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TBlobStore, TPdfTools, TUrlFetcher } from '../ports/files';
import type { TClock, TIds } from '../ports/system';
import type { TDocTemplateStore } from '../ports/templates';
import { type TDocTemplate, type TTemplateCaller, type TTemplateRole, templateBlobKey } from './doc-template';
import { asDocumentField, asTemplateError } from './template-input';

export interface TDocTemplateDeps {
  templates: TDocTemplateStore;
  accounts: TAccountStore;
  blobs: TBlobStore;
  pdf: TPdfTools;
  fetcher: TUrlFetcher;
  clock: TClock;
  ids: TIds;
}

/** Roles with unique keys (a label defaults to the key); duplicates are reported on their path. */
export function checkRoles(
  given: z.output<typeof ZTemplateRoleSchema>[],
  errors: TFieldError[],
): TTemplateRole[] {
  const seen = new Set<string>();
  given.forEach((r, i) => {
    if (seen.has(r.key))
      errors.push({ field: `roles[${i}].key`, message: `Another role already has the key "${r.key}".` });
    seen.add(r.key);
  });
  return given.map((r) => ({ key: r.key, label: r.label ?? r.key }));
}

/** A team must exist in the account, and the account must have teams. */
export async function checkTeam(
  accounts: TAccountStore,
  accountId: string,
  team: string | undefined,
  errors: TFieldError[],
) {
  if (!team) return;
  const account = await accounts.getAccount(accountId);
  const found = account?.features.teams
    ? (await accounts.listTeams(accountId)).some((t) => t.id === team)
    : false;
  if (!found)
    errors.push({
      field: 'team',
      message: account?.features.teams ? 'No team has this id.' : 'Teams are not enabled for this account.',
    });
}

/** Whether a body key is given: present, not null and not ''. */
export const isGiven = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The document a body gives for a new template: those of file_url, file_b64 and file_index it has. */
export function documentSource(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    (['file_url', 'file_b64', 'file_index'] as const).filter((k) => isGiven(raw[k])).map((k) => [k, raw[k]]),
  );
}

/**
 * POST /templates/: a PDF taken in as a bundle's document is (file_url, file_b64 or file_index;
 * the same PDF checks), its fields checked by the bundle rules against the roles, then stored.
 */
export async function createDocTemplate(
  deps: TDocTemplateDeps,
  caller: TTemplateCaller,
  body: unknown,
  files: ReadonlyMap<number, Buffer> = new Map(),
  /** Under an Idempotency-Key: the template's id follows from the request (create-once.ts). */
  retrySeed?: string,
): Promise<TDocTemplate> {
  const input = parseInput(ZDocTemplateCreateSchema, body);
  const derived = retrySeed === undefined ? undefined : derivedUuid(`template:${retrySeed}`);
  return createOnce(
    derived,
    (id) => deps.templates.get(caller.accountId, id),
    () => writeDocTemplate(deps, caller, input, body, files, derived ?? deps.ids.uuid()),
  );
}

async function writeDocTemplate(
  deps: TDocTemplateDeps,
  caller: TTemplateCaller,
  input: z.output<typeof ZDocTemplateCreateSchema>,
  body: unknown,
  files: ReadonlyMap<number, Buffer>,
  id: string,
): Promise<TDocTemplate> {
  const raw = body as Record<string, unknown>;
  const errors: TFieldError[] = [];
  const roles = checkRoles(input.roles ?? [], errors);
  await checkTeam(deps.accounts, caller.accountId, input.team, errors);
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);

  const item: Record<string, unknown> = { key: 'template', ...documentSource(raw) };
  if (input.fields) item.fields = input.fields.map(asDocumentField);
  if (input.auto_placements) item.auto_placements = input.auto_placements.map(asDocumentField);
  if (input.text_tags) item.text_tags = true;
  if (input.form_fields) item.form_fields = true;
  if (input.form_field_editors) item.form_field_editors = input.form_field_editors;

  let draft: Awaited<ReturnType<typeof buildDocuments>>[number];
  try {
    const paper = (await deps.accounts.getAccount(caller.accountId))?.imagePageSize;
    const roleKeys = new Set(roles.map((r) => r.key));
    [draft] = (await buildDocuments(deps, [item], roleKeys, files, undefined, paper)) as [typeof draft];
  } catch (err) {
    throw asTemplateError(err);
  }

  const blobKey = templateBlobKey(caller.accountId, id);
  await deps.blobs.put(blobKey, draft.bytes!, 'application/pdf');
  const now = deps.clock.now().toISOString();
  const template: TDocTemplate = {
    id,
    accountId: caller.accountId,
    name: input.name ?? nameOf(raw.file_url) ?? 'Untitled template',
    isShared: input.is_shared ?? false,
    owner: caller.userId,
    ...(input.team ? { team: input.team } : {}),
    document: {
      name: input.name ?? nameOf(raw.file_url) ?? 'Untitled template',
      blobKey,
      sha256: draft.document.sha256,
      size: draft.document.size,
      pages: draft.document.pages,
    },
    roles,
    fields: draft.document.fields,
    created: now,
    updated: now,
    version: 1,
  };
  await deps.templates.save(template, undefined);
  return template;
}

/** The file name of a file_url, as upstream names a template by its file. */
function nameOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return last.trim() === '' ? undefined : last.slice(0, 255);
  } catch {
    return undefined;
  }
}
