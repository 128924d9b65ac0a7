import type { TConfig } from '#shared/config';
import type { TAccount } from '#shared/domain/accounts/account';
import type { TAccountStore } from '#shared/domain/ports/accounts';

/**
 * Where the page's script may fetch the documents' presigned links from: the documents bucket.
 * Locally the s3rver endpoint (path-style links); on AWS the bucket's regional virtual-hosted
 * name, as the SDK presigns it.
 */
function documentsOrigin(config: TPolicyPlace): string | undefined {
  if (config.endpoints.s3) {
    try {
      return new URL(config.endpoints.s3).origin;
    } catch {
      return undefined;
    }
  }
  if (!config.bucketName) return undefined;
  return `https://${config.bucketName}.s3.${config.region}.amazonaws.com`;
}

/**
 * Whether a brand's logo can be shown: an https image (its origin then allowed by img-src), or
 * one uploaded by an admin, kept as a PNG or JPEG `data:` URL (img-src allows data:).
 */
export function logoShown(logoUrl: string | undefined): boolean {
  return logoOrigin(logoUrl) !== undefined || /^data:image\/(png|jpeg);base64,/.test(logoUrl ?? '');
}

/** The https origin of a brand's logo, or undefined when it cannot be shown (not https). */
export function logoOrigin(logoUrl: string | undefined): string | undefined {
  if (!logoUrl) return undefined;
  try {
    const url = new URL(logoUrl);
    return url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** What the policy needs of the configuration: where the documents' presigned links point. */
export type TPolicyPlace = Pick<TConfig, 'endpoints' | 'bucketName' | 'region'>;

export interface TPolicyOptions {
  /** Origins allowed to frame the page; none: it may not be framed at all. */
  frameAncestors?: string[];
  /** Origins the page may frame (the console frames the service's own editor); none: no frames. */
  frameSources?: string[];
  /** Extra image origins (the brand's logo). */
  imageOrigins?: string[];
  /** Whether the request came over https (then browsers are told to keep to it). */
  https?: boolean;
  /** Hash sources (`'sha256-…'`) of the page's own inline scripts (early-start.ts); no others run. */
  scriptHashes?: string[];
  /** Hash sources of the page's own inline style sheet (page-style.ts); no other inline style applies. */
  styleHashes?: string[];
}

/** Browser features the pages never use; only the camera (the selfie step) is allowed, for the page itself. */
const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=()',
  'geolocation=()',
  'display-capture=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'bluetooth=()',
  'midi=()',
  'screen-wake-lock=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

/**
 * The signing pages' Content-Security-Policy: scripts, styles, fonts and workers from the pages'
 * own origin only (no inline code but the script and style sheet named by their hash, no eval), images also from data:/blob: (drawn marks, camera
 * snapshots) and the brand's logo origin, fetches to the API and the documents bucket, no
 * plugins, no <base>, forms only to itself, and no framing unless the page is an embedded session
 * of an account that lists the origins allowed to frame it.
 */
function contentSecurityPolicy(config: TPolicyPlace, opts: TPolicyOptions = {}): string {
  const docs = documentsOrigin(config);
  const ancestors = opts.frameAncestors?.length ? opts.frameAncestors.join(' ') : "'none'";
  return [
    "default-src 'none'",
    ['script-src', "'self'", ...(opts.scriptHashes ?? [])].join(' '),
    ['style-src', "'self'", ...(opts.styleHashes ?? [])].join(' '),
    ['img-src', "'self'", 'data:', 'blob:', ...(opts.imageOrigins ?? [])].join(' '),
    "font-src 'self' data:",
    ['connect-src', "'self'", ...(docs ? [docs] : [])].join(' '),
    "worker-src 'self' blob:",
    "media-src 'self' blob: mediastream:",
    "manifest-src 'self'",
    ...(opts.frameSources?.length ? [`frame-src ${opts.frameSources.join(' ')}`] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/** The headers every page and asset answer carries. */
export function securityHeaders(config: TPolicyPlace, opts: TPolicyOptions = {}): Record<string, string> {
  const framed = (opts.frameAncestors?.length ?? 0) > 0;
  return {
    'Content-Security-Policy': contentSecurityPolicy(config, opts),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // Older browsers know only this one; it cannot name several origins, so framed pages go without.
    ...(framed ? {} : { 'X-Frame-Options': 'DENY' }),
    ...(opts.https ? { 'Strict-Transport-Security': 'max-age=31536000' } : {}),
  };
}

/**
 * Who may frame a page of an account's embedded flows (embedded signing, template preparation):
 * the origins the operator set with `set-embed-origins`; undefined (nobody) when there are none.
 */
export async function accountFrameAncestors(
  accounts: TAccountStore,
  accountId: string,
): Promise<string[] | undefined> {
  return frameAncestors(await accounts.getAccount(accountId));
}

/** The same, of an account already read. */
export const frameAncestors = (account: Pick<TAccount, 'embedOrigins'> | undefined) =>
  account?.embedOrigins?.length ? account.embedOrigins : undefined;

/** A file the pages do not have (an asset or font of another version, or none): plain 404, never cached. */
export function fileNotFound(headers: Record<string, string>) {
  return {
    status: 404,
    text: 'Not found.\n',
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  };
}
