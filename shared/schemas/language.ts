import * as z from 'zod';
import { canonicalTag, LANGUAGES, MAX_TAG_LENGTH, supportedLanguage } from '#shared/i18n/languages';

/**
 * A language for the signer's side (this service's own field, on packets and bundles): an IETF
 * tag of a language the service has a catalog for (`pt`, `pt-BR`, `zh-Hans`, `en-GB`…), kept in
 * canonical form as given (`PT-br` → `pt-BR`). Refused, with the supported ones named, when it is
 * not a well-formed tag or no catalog serves it: a client learns at once rather than finding its
 * signers reading English.
 */
export const ZLanguageSchema = z
  .string('Must be an IETF language tag, e.g. "fr" or "pt-BR".')
  .trim()
  .max(MAX_TAG_LENGTH, `At most ${MAX_TAG_LENGTH} characters.`)
  .refine((tag) => canonicalTag(tag) !== undefined, 'Must be an IETF language tag, e.g. "fr" or "pt-BR".')
  .refine(
    (tag) => supportedLanguage(tag) !== undefined,
    `This language is not supported. Supported: ${LANGUAGES.join(', ')}.`,
  )
  .transform((tag) => canonicalTag(tag)!);
