import { ZBrandCreateSchema } from '#shared/schemas/account';
import { NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TClock, TIds } from '../ports/system';
import type { TBrand } from './account';

/** A signing brand of the account, added by the operator or an admin (signing-brands.ts). */
export async function addBrand(
  deps: { accounts: TAccountStore; clock: TClock; ids: TIds },
  accountId: string,
  input: unknown,
  /** A logo an admin uploaded, already read (signing-brands.ts), as the `data:` URL kept. */
  uploadedLogo?: string,
): Promise<TBrand> {
  const b = parseInput(ZBrandCreateSchema, input);
  if (!(await deps.accounts.getAccount(accountId))) throw new NotFoundError('Account not found.');
  const brand: TBrand = {
    id: deps.ids.uuid(),
    accountId,
    name: b.name,
    ...(b.redirectUrl ? { redirectUrl: b.redirectUrl } : {}),
    ...(b.primaryColor ? { primaryColor: b.primaryColor } : {}),
    ...(uploadedLogo || b.logoUrl ? { logoUrl: uploadedLogo ?? b.logoUrl } : {}),
    created: deps.clock.now().toISOString(),
  };
  await deps.accounts.addBrand(brand);
  return brand;
}
