// The names a seal identity goes by, in one place: the KMS alias of its key and the name of its
// certificate chain, for the service (`<name>`, e.g. esign-prod-seal) and for an account with an
// identity of its own. The stack, the document worker, the local runtime and the operator's
// commands all derive them here, so they agree.

/** Account ids become parts of alias, secret and file names: only these characters. */
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function checkSealAccountId(accountId: string): string {
  if (!ACCOUNT_ID.test(accountId)) {
    throw new Error(`"${accountId}" is not an account id (letters, digits, - and _ only).`);
  }
  return accountId;
}

/** The KMS alias of the seal key: the service's, or the account's. */
export const sealKeyAlias = (name: string, accountId?: string) =>
  accountId ? `alias/${name}-account-${checkSealAccountId(accountId)}` : `alias/${name}`;

/** The name of the chain's home (a Secrets Manager secret on AWS, a file locally). */
export const sealChainName = (name: string, accountId?: string) =>
  accountId ? `${name}-chain-account-${checkSealAccountId(accountId)}` : `${name}-chain`;

/** Who a seal identity belongs to, for messages. */
export const sealOwner = (accountId?: string) => (accountId ? `account ${accountId}` : 'the service');

/** Every account's key alias and chain name, as IAM patterns (the worker's grants). */
export const sealAccountPatterns = (name: string) => ({
  keyAlias: `alias/${name}-account-*`,
  chain: `${name}-chain-account-*`,
});
