/** The partition of everything an account owns: one place for the prefix every entity shares. */
export const accountPartition = (accountId: string) => `ACCOUNT#${accountId}`;
