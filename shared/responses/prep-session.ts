import type { TDocTemplate } from '#shared/domain/templates/doc-template';
import type { TPrepSession } from '#shared/domain/templates/prep-session';
import { toDocTemplateResponse } from './doc-template';

/** The session as the page reads it: the template (no file link: the page reads the PDF itself). */
export function toPrepSessionResponse(s: TPrepSession, t: TDocTemplate) {
  const { file_url: _fileUrl, ...template } = toDocTemplateResponse(t, '');
  return {
    template: { ...template, version: t.version, pages: t.document.pages },
    allowed_data_flow_tags: s.allowedTags ?? null,
    redirect_url: s.redirectUrl ?? null,
    expires: s.expires,
  };
}
