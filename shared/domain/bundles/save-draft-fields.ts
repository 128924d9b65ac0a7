import { ZDraftFieldsSchema } from '#shared/schemas/draft-fields';
import { ZFieldRequestSchema } from '#shared/schemas/field';
import { ConflictError, type TFieldError, ValidationError } from '../errors';
import { parseInput, parseInputAt } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TClock, TIds } from '../ports/system';
import { event } from './audit-event';
import { fieldLimitErrors } from './build-documents';
import type { TBundle, TDocument, TField } from './bundle';
import { formulaErrors } from './calculated-fields';
import { changeBundle } from './change-bundle';
import { conditionErrors } from './check-conditions';
import { checkField, toField } from './check-field';
import { openDraftSession, type TDraftSessionDeps } from './draft-prep-session';
import { isDraft } from './lifecycle/status';

/**
 * The editor's Save: every document's fields replace the draft's, each checked by the rules
 * creating a bundle checks them (shape, page, edges, signers, patterns: 400 naming the field as
 * `documents[i].fields[j].…`). The new fields are written first as a new copy of each document
 * that nothing reads yet; then ONE conditional write of the bundle names that copy, only if the
 * bundle is still a draft at the version the page read (a draft changed or sent meanwhile: 409).
 * Of two saves of one version, one wins. A save that loses deletes its copy; one that wins, the
 * old one.
 */
export async function saveDraftFields(
  deps: TDraftSessionDeps & { accounts: TAccountStore; ids: TIds; clock: TClock },
  token: unknown,
  body: unknown,
): Promise<{ bundle: TBundle; documents: TDocument[] }> {
  const { session, bundle, documents } = await openDraftSession(deps, token, { change: true });
  const input = parseInput(ZDraftFieldsSchema, body);
  const packetKeys = new Set(bundle.packets.map((p) => p.key));
  const errors: TFieldError[] = [];
  const given = new Map(input.documents.map((d, i) => [d.key, { fields: d.fields, index: i }]));
  input.documents.forEach((d, i) => {
    if (!documents.some((doc) => doc.key === d.key))
      errors.push({ field: `documents[${i}].key`, message: `The bundle has no document "${d.key}".` });
    else if (input.documents.findIndex((o) => o.key === d.key) !== i)
      errors.push({ field: `documents[${i}].key`, message: `The document "${d.key}" is given twice.` });
  });
  const rev = deps.ids.slug();
  const next: TDocument[] = documents.map((doc) => {
    const mine = given.get(doc.key);
    // A document the page did not send keeps its fields.
    return {
      ...doc,
      rev,
      fields: mine ? checkedFields(mine.fields, mine.index, doc, packetKeys, errors) : doc.fields,
    };
  });
  // Conditions may name fields of other documents: checked over all of them, as sent.
  if (errors.length === 0)
    errors.push(...conditionErrors(next, (i) => `documents[${given.get(next[i]!.key)?.index ?? i}]`));
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);

  await deps.bundles.putDocuments(bundle, next);
  const now = deps.clock.now().toISOString();
  let saved: TBundle;
  try {
    saved = await changeBundle(deps, session.accountId, bundle.id, (b) => {
      if (!isDraft(b.status))
        throw new ConflictError(
          `This bundle was sent (it is "${b.status}"): it can no longer be changed here.`,
        );
      if (b.version !== input.version)
        throw new ConflictError('The draft changed since this page read it. Reload the page to see it.');
      return {
        ...b,
        documents: b.documents.map((d) => ({ ...d, rev })),
        events: [...b.events, event('updated', now, session.actor, undefined, 'fields')],
      };
    });
  } catch (err) {
    await deps.bundles.deleteDocuments(bundle, next).catch(() => undefined);
    throw err;
  }
  await deps.bundles.deleteDocuments(bundle, documents).catch(() => undefined);
  return { bundle: saved, documents: next };
}

/** One document's fields, checked; what is wrong goes into `errors` under the field's path. */
function checkedFields(
  requests: unknown[],
  index: number,
  doc: TDocument,
  packetKeys: ReadonlySet<string>,
  errors: TFieldError[],
): TField[] {
  const path = `documents[${index}]`;
  const fields: TField[] = [];
  const paths: string[] = [];
  const taken = new Set<string>();
  let n = 0;
  requests.forEach((raw, j) => {
    const at = `${path}.fields[${j}]`;
    const parsed = parseInputAt(ZFieldRequestSchema, raw, ['documents', index, 'fields', j]);
    if ('errors' in parsed) {
      errors.push(...parsed.errors);
      return;
    }
    const f = parsed.data;
    errors.push(...checkField(f, { pageCount: doc.pages.length, packetKeys, path: at }));
    // The draft's data was applied when it was made (prefill.ts): a read-only field now needs its own.
    if (f.read_only && (f.initial_value ?? '') === '')
      errors.push({ field: `${at}.initial_value`, message: 'A read-only field needs a value.' });
    let key = f.key;
    if (key && taken.has(key))
      errors.push({ field: `${at}.key`, message: `Another field already has the key "${key}".` });
    if (!key) {
      do key = `field-${++n}`;
      while (taken.has(key) || requests.some((r) => (r as { key?: unknown } | null)?.key === key));
    }
    taken.add(key);
    fields.push(toField(f, key));
    paths.push(at);
  });
  errors.push(...fieldLimitErrors(fields, path));
  errors.push(...formulaErrors(fields, paths));
  return fields;
}
