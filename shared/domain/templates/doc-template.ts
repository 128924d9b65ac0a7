import type { TField, TPage } from '../bundles/bundle';

/** A role of a document template: whoever a bundle assigns to it edits the fields naming it. */
export interface TTemplateRole {
  key: string;
  label: string;
}

/**
 * A document template: one PDF with its fields placed for roles instead of signers. A field's
 * `editors` hold role keys (a `-` prefix: optional for that role); `initialValue` is its default.
 */
export interface TDocTemplate {
  id: string;
  accountId: string;
  name: string;
  isShared: boolean;
  /** The user whose API key created it. */
  owner: string;
  team?: string;
  document: { name: string; blobKey: string; sha256: string; size: number; pages: TPage[] };
  roles: TTemplateRole[];
  fields: TField[];
  created: string;
  updated: string;
  version: number;
}

/** Who asks: the account and user of the API key. */
export interface TTemplateCaller {
  accountId: string;
  userId: string;
}

export const templateBlobKey = (accountId: string, templateId: string) =>
  `accounts/${accountId}/templates/${templateId}/original.pdf`;
