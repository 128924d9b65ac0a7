// The table's DynamoDB Stream for the local runtime. On AWS the stack's table streams a record
// of every item written (view NEW_IMAGE) and Lambda feeds them to the functions that read the
// stream (infra/workers.ts, STREAM_CONSUMERS). dynalite has no streams, but every item it writes,
// alone, in a batch or in a transaction (dynamo-transact-write.ts), ends as a put, a del or a
// batch on its one LevelDB under the key `item-<table>~<key>`, each under the item's lock. So
// the records are read there: after each write of an item of the table, in the order written.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { TBatchOp, TDone, TItem, TStore } from 'dynalite/db/index.js';

/** An item in a stream record: dynalite keeps items in DynamoDB's wire form, as the stream shows them. */
type TImage = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;

/** dynalite's LevelDB as its stores call it (callback style; `get` answers NotFoundError). */
interface TMainDb {
  get(key: string, cb: (err: Error | null, value?: TItem) => void): void;
  put(key: string, value: TItem, cb: TDone): void;
  del(key: string, cb: TDone): void;
  batch(ops: TBatchOp[], cb: TDone): void;
}

export interface TTableStream {
  /** Hears every record from now on, in the order the items were written. */
  subscribe(listener: (record: DynamoDBRecord) => void): () => void;
  /**
   * Gives the listeners a MODIFY record of each item (the document client's form) as if just
   * written: what a stream that outlived its process would still hold for them.
   */
  retained(items: Promise<Record<string, unknown>[]>): Promise<void>;
}

/**
 * Streams `table`'s item writes on dynalite's store as DynamoDB Streams records (NEW_IMAGE).
 * Each write reads the item's previous value first (under the lock its writer holds) to tell an
 * INSERT from a MODIFY, and a REMOVE's keys, as the stream does.
 */
export function streamTable(store: TStore, table: string, arn: string, region: string): TTableStream {
  const main = store.db as unknown as TMainDb;
  const prefix = `item-${table}~`;
  const listeners = new Set<(record: DynamoDBRecord) => void>();
  let sequence = 0;

  const record = (old: TItem | undefined, next: TItem | undefined): DynamoDBRecord => {
    const item = (next ?? old)!;
    sequence += 1;
    const eventName = !next ? 'REMOVE' : old ? 'MODIFY' : 'INSERT';
    return {
      eventID: `${Date.now().toString(36)}-${sequence}`,
      eventName,
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: region,
      eventSourceARN: arn,
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: { pk: item.pk, sk: item.sk } as unknown as TImage,
        ...(next ? { NewImage: next as unknown as TImage } : {}),
        SequenceNumber: String(sequence).padStart(21, '0'),
        SizeBytes: Buffer.byteLength(JSON.stringify(item)),
        StreamViewType: 'NEW_IMAGE',
      },
    };
  };
  const emit = (changes: { old: TItem | undefined; next: TItem | undefined }[]) => {
    if (listeners.size === 0) return;
    for (const { old, next } of changes) {
      const r = record(old, next);
      for (const listen of listeners) listen(r);
    }
  };
  const previous = (key: string) =>
    new Promise<TItem | undefined>((resolve, reject) =>
      main.get(key, (err, value) => {
        if (err && err.name !== 'NotFoundError') reject(err);
        else resolve(err ? undefined : value);
      }),
    );
  /** `write` once the previous values of `keys` are read; the records once it is written. */
  const around = (keys: string[], nexts: (TItem | undefined)[], write: (cb: TDone) => void, cb: TDone) => {
    if (keys.length === 0 || listeners.size === 0) return write(cb);
    Promise.all(keys.map(previous)).then(
      (olds) =>
        write((err) => {
          if (!err) emit(olds.map((old, i) => ({ old, next: nexts[i] })));
          cb(err);
        }),
      (err: Error) => cb(err),
    );
  };

  const { put, del, batch } = main;
  main.put = (key, value, cb) => {
    if (!key.startsWith(prefix)) return put.call(main, key, value, cb);
    around([key], [value], (done) => put.call(main, key, value, done), cb);
  };
  main.del = (key, cb) => {
    if (!key.startsWith(prefix)) return del.call(main, key, cb);
    around([key], [undefined], (done) => del.call(main, key, done), cb);
  };
  main.batch = (ops, cb) => {
    const items = ops.filter((op) => op.key.startsWith(prefix));
    around(
      items.map((op) => op.key),
      items.map((op) => (op.type === 'put' ? (op.value as TItem) : undefined)),
      (done) => batch.call(main, ops, done),
      cb,
    );
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async retained(items) {
      const images = (await items).map(
        (i) => marshall(i, { removeUndefinedValues: true }) as unknown as TItem,
      );
      emit(images.map((next) => ({ old: next, next })));
    },
  };
}
