import { createRequire } from 'node:module';
import { marshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  consumedUnits,
  describeCommands,
  itemBytes,
  numberBytes,
  ownReadUnits,
  pageCostRatio,
  readUnits,
  valueBytes,
} from '../../bench/capacity';

// dynalite's own item size, the one its ConsumedCapacity is computed from (on wire-format items).
const dynaliteDb = createRequire(import.meta.url)('dynalite/db') as {
  itemSize(item: Record<string, unknown>): number;
};
const dynaliteSize = (item: Record<string, unknown>) =>
  dynaliteDb.itemSize(
    marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true }) as Record<
      string,
      unknown
    >,
  );

describe('consumedUnits', () => {
  it('reads one ConsumedCapacity or sums one per table', () => {
    expect(consumedUnits({ ConsumedCapacity: { TableName: 't', CapacityUnits: 2.5 } })).toBe(2.5);
    expect(
      consumedUnits({
        ConsumedCapacity: [
          { TableName: 'a', CapacityUnits: 3 },
          { TableName: 'b', CapacityUnits: 0.5 },
        ],
      }),
    ).toBe(3.5);
  });

  it('says when the answer carries none', () => {
    expect(consumedUnits({ Items: [] })).toBeUndefined();
    expect(consumedUnits(undefined)).toBeUndefined();
  });
});

describe('item sizes', () => {
  it('counts attribute names and UTF-8 bytes of strings', () => {
    expect(itemBytes({ pk: 'ACCOUNT#1', sk: 'BUNDLE#x' })).toBe(2 + 9 + 2 + 8);
    expect(valueBytes('é')).toBe(2);
    expect(itemBytes({ ünï: 'x' })).toBe(5 + 1);
  });

  it('counts one byte per two significant digits plus one, and one more when negative', () => {
    expect(numberBytes(0)).toBe(1);
    expect(numberBytes(7)).toBe(2);
    expect(numberBytes(123)).toBe(3);
    expect(numberBytes(-123)).toBe(4);
    expect(numberBytes(1000)).toBe(2); // trailing zeros are not stored
    expect(() => numberBytes(Number.NaN)).toThrow(RangeError);
  });

  it('adds 3 bytes a list or map and 1 an element; booleans and null are 1 byte', () => {
    expect(valueBytes([])).toBe(3);
    expect(valueBytes(['ab', true])).toBe(3 + 1 + 2 + 1 + 1);
    expect(valueBytes({ a: null })).toBe(3 + 1 + 1 + 1);
    expect(valueBytes(new Uint8Array(10))).toBe(10);
  });

  it('agrees with dynalite on the items of this bench (ASCII text, numbers, lists, maps)', () => {
    const key = fc
      .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 })
      .filter((k) => k !== '__proto__');
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 6, noNullPrototype: true }), (item) => {
        expect(itemBytes(item)).toBe(dynaliteSize(item));
      }),
      { numRuns: 300 },
    );
  });
});

describe('readUnits', () => {
  const sized = (bytes: number) => ({ s: 'x'.repeat(bytes - 1) }); // name "s" is 1 byte

  it('rounds each item up to 4 KB for Get and BatchGet, half when eventually consistent', () => {
    expect(readUnits('item', [sized(100)], true)).toBe(1);
    expect(readUnits('item', [sized(4096)], true)).toBe(1);
    expect(readUnits('item', [sized(4097)], true)).toBe(2);
    expect(readUnits('item', [sized(100), sized(100)], true)).toBe(2);
    expect(readUnits('item', [sized(100), sized(5000)], false)).toBe(1.5);
  });

  it('rounds the summed size of a query up to 4 KB', () => {
    const hundred = Array.from({ length: 100 }, () => sized(100));
    expect(readUnits('query', hundred, true)).toBe(3); // 10,000 bytes
    expect(readUnits('query', hundred, false)).toBe(1.5);
    expect(readUnits('query', [], false)).toBe(0);
  });
});

describe('ownReadUnits', () => {
  const item = { pk: 'A', sk: 'B', n: 1 };

  it('recomputes a GetItem, a Query and a BatchGetItem from their answers', () => {
    expect(ownReadUnits({ command: 'GetItem', input: {}, output: { Item: item } })).toBe(0.5);
    expect(
      ownReadUnits({ command: 'Query', input: { ConsistentRead: true }, output: { Items: [item] } }),
    ).toBe(1);
    expect(
      ownReadUnits({
        command: 'BatchGetItem',
        input: { RequestItems: { t: { Keys: [{}, {}, {}], ConsistentRead: true } } },
        // One found, one missing (still a unit), one left unprocessed (not read).
        output: { Responses: { t: [item] }, UnprocessedKeys: { t: { Keys: [{}] } } },
      }),
    ).toBe(2);
  });

  it('gives up when the answer does not carry what was read', () => {
    const projected = { ProjectionExpression: 'sk, id' };
    expect(ownReadUnits({ command: 'Query', input: projected, output: { Items: [item] } })).toBeUndefined();
    expect(ownReadUnits({ command: 'GetItem', input: {}, output: {} })).toBeUndefined();
    expect(
      ownReadUnits({
        command: 'BatchGetItem',
        input: { RequestItems: { t: { Keys: [{}], ...projected } } },
        output: { Responses: { t: [item] } },
      }),
    ).toBeUndefined();
    expect(ownReadUnits({ command: 'PutItem', input: {}, output: {} })).toBeUndefined();
  });
});

describe('pageCostRatio', () => {
  it('holds while page N costs at most N times page 1', () => {
    expect(pageCostRatio(10, 10, 20)).toEqual({ ratio: 1, ok: true });
    expect(pageCostRatio(10, 200, 20)).toEqual({ ratio: 20, ok: true });
    expect(pageCostRatio(10, 201, 20).ok).toBe(false);
    expect(pageCostRatio(4, 1, 20)).toEqual({ ratio: 0.25, ok: true });
  });

  it('handles a free page 1 and refuses a page below 1', () => {
    expect(pageCostRatio(0, 0, 20)).toEqual({ ratio: 1, ok: true });
    expect(pageCostRatio(0, 1, 20).ok).toBe(false);
    expect(() => pageCostRatio(1, 1, 0)).toThrow(RangeError);
  });
});

describe('describeCommands', () => {
  it('gives the count, then each command once with how often it was sent', () => {
    expect(describeCommands(['Query', 'Query', 'BatchGetItem'])).toBe('3 (Query ×2, BatchGetItem)');
    expect(describeCommands(['GetItem'])).toBe('1 (GetItem)');
    expect(describeCommands([])).toBe('0 (none)');
  });
});
