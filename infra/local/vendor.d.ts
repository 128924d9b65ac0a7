// The two local stand-ins ship no types; these declare only what the runtime uses.

declare module 'dynalite' {
  import type { Server } from 'node:http';

  function dynalite(options?: {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }): Server;
  export default dynalite;
}

declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      directory: string;
      silent?: boolean;
      configureBuckets?: { name: string }[];
    });
    /** Koa's middleware list: a stand-in route put first runs before s3rver's own. */
    middleware: ((ctx: never, next: () => Promise<unknown>) => Promise<unknown>)[];
    /** Where it keeps the objects (its filesystem store). */
    store: unknown;
    /** Its HTTP server's address(). */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
  /** The part of Koa's context the stand-in reads. */
  export interface TS3rverContext {
    method: string;
    path: string;
    status: number;
    get(header: string): string;
  }
}

// s3rver's models, which its GET answers from (infra/local/s3.ts reads small objects itself).
declare module 's3rver/lib/models/bucket.js' {
  export default class S3Bucket {
    constructor(name: string, creationDate: Date);
  }
}
declare module 's3rver/lib/models/config.js' {
  /** The class of a bucket's settings of `type` (cors, website), made from their XML. */
  export function getConfigModel(type: string): new (xml: string) => unknown;
}
declare module 's3rver/lib/models/object.js' {
  import type { Readable } from 'node:stream';

  export default class S3Object {
    constructor(bucket: string, key: string, content: Readable | null, metadata: Record<string, string>);
  }
}

// dynalite's own pieces that infra/local/dynamo-transactions.ts and dynamo-transact-write.ts
// build TransactWriteItems from (dynalite 4.0.0 has none): its store, key and condition helpers,
// request validations and UpdateItem. Only what those files use.
declare module 'dynalite/db/index.js' {
  /** One attribute in DynamoDB's JSON form ({ S: 'x' }, { N: '1' }, …). */
  export type TAttributeValue = Record<string, unknown>;
  export type TItem = Record<string, TAttributeValue>;
  /** dynalite's errors carry the HTTP status and the body to answer with. */
  export interface TDynaliteError extends Error {
    statusCode?: number;
    body?: { __type: string; message?: string; [member: string]: unknown };
  }
  export type TDone = (err?: TDynaliteError | null) => void;
  export interface TTable {
    TableName: string;
    KeySchema: { AttributeName: string; KeyType: string }[];
  }
  /** Releases a key's lock, then calls `done`. */
  export type TRelease = <F extends (...args: never[]) => unknown>(done: F) => F;
  export type TBatchOp = { type: 'put'; key: string; value: TItem } | { type: 'del'; key: string };
  /** A part of the one LevelDB (a table's items, an index's entries): its keys carry a prefix. */
  export interface TIndexDb {
    put(key: string, item: TItem, cb: TDone): void;
    del(key: string, cb: TDone): void;
    /** Hands the operations, each key prefixed, to the main database's `batch`. */
    batch(ops: TBatchOp[], cb: TDone): void;
  }
  export interface TItemDb extends TIndexDb {
    /** Runs `fn` once `key` is free; others wait until it calls what `release` returns. */
    lock(key: string, fn: (release: TRelease) => void): void;
    get(key: string, cb: (err: TDynaliteError | null, item?: TItem) => void): void;
  }
  export interface TStore {
    options: { maxItemSize: number };
    /** The one LevelDB every table, item and index is kept in; a batch on it is atomic. */
    db: { batch(ops: TBatchOp[], cb: TDone): void };
    getTable(
      name: string,
      checkStatus: boolean,
      cb: (err: TDynaliteError | null, table?: TTable) => void,
    ): void;
    getItemDb(tableName: string): TItemDb;
    getIndexDb(indexType: string, tableName: string, indexName: string): TIndexDb;
  }
  /** A single-item request as dynalite's validations leave it (expressions parsed into `_…`). */
  export interface TActionData {
    TableName: string;
    Item?: TItem;
    Key?: TItem;
    ConditionExpression?: string;
    UpdateExpression?: string;
    _condition?: unknown;
    _updates?: unknown;
    [member: string]: unknown;
  }
  const db: {
    create(options: object): TStore;
    createKey(item: TItem, table: TTable): string;
    validateItem(item: TItem, table: TTable): TDynaliteError | undefined;
    validateKey(key: TItem, table: TTable): TDynaliteError | undefined;
    validateUpdates(attributeUpdates: undefined, updates: unknown, table: TTable): TDynaliteError | undefined;
    /** The ConditionalCheckFailedException to answer, or nothing when the condition holds. */
    checkConditional(data: TActionData, existing: TItem | undefined): TDynaliteError | null | undefined;
    /** Brings every secondary index from `old` to `item` (either may be missing). */
    updateIndexes(
      store: TStore,
      table: TTable,
      old: TItem | undefined,
      item: TItem | undefined,
      cb: TDone,
    ): void;
    /** Write units of an item (1 per KB started). */
    capacityUnits(item: TItem | undefined, isRead: boolean): number;
    validationError(message: string): TDynaliteError;
  };
  export default db;
}

declare module 'dynalite/validations/index.js' {
  import type { TActionData, TStore } from 'dynalite/db/index.js';
  export interface TActionRules {
    types: object;
    custom?: (data: TActionData, store: TStore) => string | undefined;
  }
  const validations: {
    /** The request with each member checked against `types` (throws a SerializationException). */
    checkTypes(data: object, types: object): TActionData;
    /** Throws a ValidationException; parses the expressions into `_condition`, `_updates`. */
    checkValidations(data: TActionData, types: object, custom: TActionRules['custom'], store: TStore): void;
  };
  export default validations;
}

declare module 'dynalite/validations/putItem.js' {
  const rules: import('dynalite/validations/index.js').TActionRules;
  export default rules;
}
declare module 'dynalite/validations/updateItem.js' {
  const rules: import('dynalite/validations/index.js').TActionRules;
  export default rules;
}
declare module 'dynalite/validations/deleteItem.js' {
  const rules: import('dynalite/validations/index.js').TActionRules;
  export default rules;
}

declare module 'dynalite/actions/updateItem.js' {
  import type { TActionData, TDynaliteError, TStore } from 'dynalite/db/index.js';
  export default function updateItem(
    store: TStore,
    data: TActionData,
    cb: (err: TDynaliteError | null, result?: unknown) => void,
  ): void;
}
