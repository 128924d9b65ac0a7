// Keys and entity of the public portal's counters, declared once.
import { defineEntity } from '../entity';

export const portalCounterKeys = {
  /** `<kind>#<subject>#<window>`: one counter per address or template and time window. */
  item: (counter: string) => ({ pk: `PORTALCOUNT#${counter}`, sk: 'PORTALCOUNT' }),
};

/**
 * Made and bumped by UpdateItem only. `ttl` (epoch seconds, the table's TTL attribute) ends it
 * after its window.
 */
export const portalCounterEntity = defineEntity<{ counter: string; count: number; ttl: number }>({
  name: 'portal-counter',
  version: 1,
  key: (c) => portalCounterKeys.item(c.counter),
});
