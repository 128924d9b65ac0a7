import type { TPage } from '../../http/pagination';
import type { TEnvelopeTemplateStore, TPageOf } from '../../ports';
import type { TEnvelopeTemplate } from './envelope-template';

/** Enabled templates only, newest created first (spec, "List Envelope Templates"). */
export function listEnvelopeTemplates(
  deps: { envelopeTemplates: TEnvelopeTemplateStore },
  accountId: string,
  page: TPage,
): Promise<TPageOf<TEnvelopeTemplate>> {
  return deps.envelopeTemplates.listEnabled(accountId, page);
}
