import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import { ZTagsRequestSchema } from '#shared/schemas/tags';
import { ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TActing } from './actor';
import { event } from './audit-event';
import type { TBundle } from './bundle';
import { changeBundle } from './change-bundle';

/** Add: the union of the bundle's tags and the given ones. Remove: tags not there are ignored. */
export function changeTags(
  deps: { bundles: TBundleStore; clock: TClock },
  { accountId, by }: TActing,
  id: string,
  mode: 'add' | 'remove',
  body: unknown,
): Promise<TBundle> {
  const { tags } = parseInput(ZTagsRequestSchema, body);
  return changeBundle(deps, accountId, id, (b) => {
    const next =
      mode === 'add' ? [...new Set([...b.tags, ...tags])] : b.tags.filter((t) => !tags.includes(t));
    if (next.length === b.tags.length && next.every((t, i) => t === b.tags[i])) return b;
    if (next.length > BUNDLE_LIMITS.tags) {
      throw new ValidationError('Invalid input.', [
        { field: 'tags', message: `A bundle has at most ${BUNDLE_LIMITS.tags} tags.` },
      ]);
    }
    const changed =
      mode === 'add' ? next.filter((t) => !b.tags.includes(t)) : b.tags.filter((t) => !next.includes(t));
    const detail = `${mode === 'add' ? 'added' : 'removed'} ${changed.join(', ')}`;
    return {
      ...b,
      tags: next,
      events: [...b.events, event('tagsChanged', deps.clock.now().toISOString(), by, undefined, detail)],
    };
  });
}
