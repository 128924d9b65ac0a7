import * as z from 'zod';
import { zText } from '#shared/schemas/common';
import { createBundle, type TCreateBundleDeps } from '../bundles/create-bundle';
import { createEmbedUrl } from '../bundles/create-embed-url';
import { NotFoundError, said, ThrottledError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore, TPortalCounterStore } from '../ports/accounts';
import type { TSigningTokenStore } from '../ports/signing';
import type { TEnvelopeTemplateStore } from '../ports/templates';
import { ENVELOPE_TEMPLATE_ID, type TEnvelopeTemplate } from './envelope-template';

/**
 * Abuse limits of the public smart link (ARCHITECTURE.md, "Portal smart links"): bundles one
 * client address may start an hour, bundles one template may make a day (UTC), whoever asks, and
 * times one client address may load a smart link's page a minute.
 */
export const PORTAL_LIMITS = { perIpPerHour: 10, perTemplatePerDay: 200, viewsPerIpPerMinute: 60 } as const;

export type TPortalLimits = { [K in keyof typeof PORTAL_LIMITS]: number };

export type TPortalDeps = TCreateBundleDeps & {
  envelopeTemplates: TEnvelopeTemplateStore;
  tokens: TSigningTokenStore;
  counters: TPortalCounterStore;
};

const ZPortalSignerSchema = z.object({
  name: zText(255).trim().min(1, 'Enter your name.'),
  email: z.email('Enter a valid email address.').max(254),
});

/**
 * The template behind a smart link: enabled, a portal, with direct signing, of an account with
 * envelope templates on; else not found.
 */
export async function portalTemplate(
  deps: { envelopeTemplates: TEnvelopeTemplateStore; accounts: TAccountStore },
  id: string,
): Promise<TEnvelopeTemplate> {
  const t = ENVELOPE_TEMPLATE_ID.test(id) ? await deps.envelopeTemplates.find(id) : undefined;
  const usable =
    t?.enabled &&
    t.isPortal &&
    t.allowDirectSigning &&
    (await deps.accounts.getAccount(t.accountId))?.features.envelope_templates;
  if (!t || !usable) throw new NotFoundError('This link is not in use.');
  return t;
}

const secondsUntil = (now: Date, end: Date) => Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));

/**
 * Counts one load of a smart link's page by `clientIp` (every template together, so trying ids
 * is limited too), before the template is even read; over the limit a ThrottledError.
 */
export async function countPortalView(
  deps: { counters: TPortalCounterStore; clock: { now(): Date } },
  clientIp: string,
  limits: Pick<TPortalLimits, 'viewsPerIpPerMinute'> = PORTAL_LIMITS,
): Promise<void> {
  const now = deps.clock.now();
  const iso = now.toISOString();
  const minuteEnd = new Date(`${iso.slice(0, 16)}:00.000Z`);
  minuteEnd.setUTCMinutes(minuteEnd.getUTCMinutes() + 1);
  if (
    !(await deps.counters.take(`view#${clientIp}#${iso.slice(0, 16)}`, limits.viewsPerIpPerMinute, minuteEnd))
  )
    throw said(
      new ThrottledError(
        secondsUntil(now, minuteEnd),
        'Too many pages were opened from your network. Try again in a minute.',
      ),
      'errors.tooManyViews',
    );
}

/**
 * Whoever opened a portal template's smart link gave their name and email: a bundle is made from
 * the template for them (its one signer role, embedded signing, the same rules as any bundle of
 * the template's account) and an embedded signing link returned to open at once. Both limits are
 * counted before anything is made, each with one conditional update.
 */
export async function startPortalSigning(
  deps: TPortalDeps,
  templateId: string,
  body: unknown,
  clientIp: string,
  publicBaseUrl: string,
  limits: Pick<TPortalLimits, 'perIpPerHour' | 'perTemplatePerDay'> = PORTAL_LIMITS,
  /** The language the visitor chose on the form's page: their packet's, over the role's. */
  language?: string,
): Promise<{ url: string; expires: string; bundleId: string }> {
  const template = await portalTemplate(deps, templateId);
  const signer = parseInput(ZPortalSignerSchema, body);
  const role = template.signers[0]!;

  const now = deps.clock.now();
  const iso = now.toISOString();
  const hourEnd = new Date(`${iso.slice(0, 13)}:00:00.000Z`);
  hourEnd.setUTCHours(hourEnd.getUTCHours() + 1);
  const dayEnd = new Date(`${iso.slice(0, 10)}T00:00:00.000Z`);
  dayEnd.setUTCDate(dayEnd.getUTCDate() + 1);
  if (!(await deps.counters.take(`ip#${clientIp}#${iso.slice(0, 13)}`, limits.perIpPerHour, hourEnd)))
    throw said(
      new ThrottledError(
        secondsUntil(now, hourEnd),
        'Too many documents were started from your network. Try again later.',
      ),
      'errors.tooManyStarts',
    );
  if (
    !(await deps.counters.take(
      `template#${template.id}#${iso.slice(0, 10)}`,
      limits.perTemplatePerDay,
      dayEnd,
    ))
  )
    throw said(
      new ThrottledError(
        secondsUntil(now, dayEnd),
        'This form has reached its limit for today. Try again tomorrow.',
      ),
      'errors.formLimit',
    );

  // The bundle is made as the envelope template's creator would make it: its documents are seen
  // as the creator sees them (see template-access).
  const bundle = await createBundle(
    deps,
    template.accountId,
    {
      envelope_template: { template_id: template.id },
      packets: [
        {
          key: role.key,
          name: signer.name,
          email: signer.email,
          deliver_via: 'embed',
          ...(language ? { language } : {}),
        },
      ],
    },
    new Map(),
    // A visitor of the portal link starts it: the events say so, naming the template.
    { userId: template.owner ?? '', by: { type: 'portal', templateId: template.id } },
  );
  const packet = bundle.packets.find((p) => p.key === role.key)!;
  const link = await createEmbedUrl(deps, template.accountId, packet.id, publicBaseUrl);
  return { ...link, bundleId: bundle.id };
}
