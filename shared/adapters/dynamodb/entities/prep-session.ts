// Keys of the template preparation session entity, declared once. A session is found by its
// token's hash alone (the public page has no account), so it is its own partition.

export const prepSessionKeys = {
  item: (hash: string) => ({ pk: `PREPSESSION#${hash}`, sk: 'PREPSESSION' }),
};
