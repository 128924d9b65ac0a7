// The signer API's and the public pages' errors in the reader's language: the errors a signer or
// visitor may read carry their message's key (shared/domain/errors.ts, `said`), and are answered
// in the language the request's Accept-Language asks for. The signing page sends the language it
// shows (public/api.js), so a signer reads errors in the language of their page: their choice,
// the packet's, the bundle's, the account's, else their browser's. The body keeps its `code`;
// an error without a key (a sender's own words, a malformed request) keeps its English.
import { ServiceError } from '#shared/domain/errors';
import type { TErrorLocalizer } from '#shared/http/api-handler';
import { translator } from '#shared/i18n/catalogs';
import { DEFAULT_LANGUAGE, languageFromAcceptLanguage } from '#shared/i18n/languages';

export const localizeSignerError: TErrorLocalizer = (shape, err, header) => {
  const lang = languageFromAcceptLanguage(header('accept-language'));
  if (!lang || lang === DEFAULT_LANGUAGE) return shape;
  const t = translator(lang);
  const said = err instanceof ServiceError ? err.said : undefined;
  return {
    ...shape,
    message: said ? t(said.key, said.values) : shape.message,
    fieldErrors: shape.fieldErrors.map((f) => (f.said ? { ...f, message: t(f.said.key, f.said.values) } : f)),
  };
};
