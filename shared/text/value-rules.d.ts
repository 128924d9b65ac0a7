// The types of value-rules.js, a plain JavaScript module the signing page runs as it is.
export type TVPattern =
  | 'email'
  | 'bank_routing'
  | 'bank_account'
  | 'letters'
  | 'numbers'
  | 'phone'
  | 'ssn'
  | 'zip_code';
export type TAttachmentType =
  | 'jpg'
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'svg'
  | 'pdf'
  | 'doc'
  | 'docx'
  | 'ppt'
  | 'pptx'
  | 'xls'
  | 'xlsx'
  | 'rtf'
  | 'txt';
export declare const V_PATTERN_CHECKS: Readonly<Record<TVPattern, (value: string) => boolean>>;
export declare const ATTACHMENT_TYPES: readonly [TAttachmentType, ...TAttachmentType[]];
export declare const MAX_ATTACHMENT_BYTES: number;
