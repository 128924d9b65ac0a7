// The account's signing brands as its users see them and its admins change them through the API
// (/signing-brands/); the operator's add-brand makes them the same way (add-brand.ts).
import { ZSigningBrandPatchSchema, ZSigningBrandWriteSchema } from '#shared/schemas/account-settings';
import { NotFoundError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TBrandStore, TLogoReader } from '../ports/brands';
import type { TClock, TIds } from '../ports/system';
import type { TBrand } from './account';
import { addBrand } from './add-brand';
import { callerUser, requireAdmin, type TCaller } from './caller';

export interface TBrandDeps {
  accounts: TAccountStore;
  brands: TBrandStore;
  logos: TLogoReader;
  clock: TClock;
  ids: TIds;
}

const CHANGE = 'change signing brands';

/** The wire's optional settings as the brand keeps them: null or absent leaves it out. */
function settingsOf(b: {
  primary_color?: string | null;
  redirect_url?: string | null;
  logo_url?: string | null;
}): Partial<Pick<TBrand, 'primaryColor' | 'redirectUrl' | 'logoUrl'>> {
  return {
    ...(b.primary_color ? { primaryColor: b.primary_color } : {}),
    ...(b.redirect_url ? { redirectUrl: b.redirect_url } : {}),
    ...(b.logo_url ? { logoUrl: b.logo_url } : {}),
  };
}

/**
 * An uploaded logo as the brand keeps it: a `data:` URL, so the signing page shows it with no
 * other request or origin (its img-src allows data:). Undefined when none was uploaded.
 */
async function uploadedLogo(deps: TBrandDeps, logoB64: string | undefined): Promise<string | undefined> {
  if (logoB64 === undefined) return undefined;
  const bytes = Buffer.from(logoB64, 'base64');
  const refuse = (message: string) => new ValidationError('Invalid input.', [{ field: 'logo_b64', message }]);
  if (bytes.length === 0) throw refuse('The logo is empty.');
  const reading = await deps.logos.read(bytes);
  if (!reading.ok) throw refuse(reading.problem);
  return `data:${reading.mediaType};base64,${bytes.toString('base64')}`;
}

export async function listSigningBrands(deps: TBrandDeps, caller: TCaller): Promise<TBrand[]> {
  await callerUser(deps, caller);
  return deps.accounts.listBrands(caller.accountId);
}

export async function getSigningBrand(deps: TBrandDeps, caller: TCaller, brandId: string): Promise<TBrand> {
  await callerUser(deps, caller);
  const brand = await deps.brands.getBrand(caller.accountId, brandId);
  if (!brand) throw new NotFoundError('Signing brand not found.');
  return brand;
}

export async function createSigningBrand(deps: TBrandDeps, caller: TCaller, input: unknown): Promise<TBrand> {
  const b = parseInput(ZSigningBrandWriteSchema, input);
  await requireAdmin(deps, caller, CHANGE);
  const logo = await uploadedLogo(deps, b.logo_b64);
  return addBrand(deps, caller.accountId, { name: b.name, ...settingsOf(b) }, logo);
}

/**
 * Changes what the body names; `null` removes a setting. One write, conditional on the brand being
 * as read: of two changes at once one wins, the other is a 409.
 */
export async function updateSigningBrand(
  deps: TBrandDeps,
  caller: TCaller,
  brandId: string,
  input: unknown,
): Promise<TBrand> {
  const patch = parseInput(ZSigningBrandPatchSchema, input);
  await requireAdmin(deps, caller, CHANGE);
  const brand = await deps.brands.getBrand(caller.accountId, brandId);
  if (!brand) throw new NotFoundError('Signing brand not found.');
  const logo = await uploadedLogo(deps, patch.logo_b64);
  const kept = settingsOf({
    primary_color: brand.primaryColor,
    redirect_url: brand.redirectUrl,
    logo_url: brand.logoUrl,
    ...patch,
    ...(logo ? { logo_url: logo } : {}),
  });
  const changed: TBrand = {
    id: brand.id,
    accountId: brand.accountId,
    name: patch.name ?? brand.name,
    ...kept,
    created: brand.created,
    ...(brand.version !== undefined ? { version: brand.version } : {}),
  };
  return deps.brands.replaceBrand(changed);
}

/**
 * Bundles that name a deleted brand keep its id; their signing pages then show the service's own
 * look, as for a bundle without one.
 */
export async function deleteSigningBrand(deps: TBrandDeps, caller: TCaller, brandId: string): Promise<void> {
  await requireAdmin(deps, caller, CHANGE);
  await deps.brands.deleteBrand(caller.accountId, brandId);
}
