// Document templates, envelope templates and template preparation sessions.
import type { TEnvelopeTemplate } from '../envelope-templates/envelope-template';
import type { TPage, TPageOf } from '../paging';
import type { TDocTemplate } from '../templates/doc-template';
import type { TPrepSession } from '../templates/prep-session';

export interface TEnvelopeTemplateStore {
  get(accountId: string, id: string): Promise<TEnvelopeTemplate | undefined>;
  /** The template whatever its account (public portal pages); the caller checks what it may show. */
  find(id: string): Promise<TEnvelopeTemplate | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(template: TEnvelopeTemplate, previous: TEnvelopeTemplate | undefined): Promise<void>;
  delete(template: TEnvelopeTemplate): Promise<void>;
  /** Enabled templates only, newest first, only those `visible` keeps (decided from the list keys). */
  listEnabled(
    accountId: string,
    visible: (t: Pick<TEnvelopeTemplate, 'isShared' | 'owner'>) => boolean,
    page: TPage,
  ): Promise<TPageOf<TEnvelopeTemplate>>;
}

/** Template preparation sessions, found by their token's hash. */
export interface TPrepSessionStore {
  create(session: TPrepSession): Promise<void>;
  get(hash: string): Promise<TPrepSession | undefined>;
  /** Claims the session for a save (`savedAt` = `at`); false when another save already holds it. */
  finish(hash: string, at: string): Promise<boolean>;
  /** Gives up the claim `finish(hash, at)` made (the save failed): the session is open again. */
  reopen(hash: string, at: string): Promise<boolean>;
}

/** Document templates, each one item written conditionally on `version`. */
export interface TDocTemplateStore {
  get(accountId: string, id: string): Promise<TDocTemplate | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(template: TDocTemplate, previous: TDocTemplate | undefined): Promise<void>;
  delete(template: TDocTemplate): Promise<void>;
  /** Newest first, only those `visible` keeps (decided from the list keys, before any page is read). */
  list(
    accountId: string,
    visible: (t: Pick<TDocTemplate, 'isShared' | 'owner' | 'team'>) => boolean,
    page: TPage,
  ): Promise<TPageOf<TDocTemplate>>;
}
