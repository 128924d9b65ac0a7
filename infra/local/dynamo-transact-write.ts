// A TransactWriteItems request carried out on dynalite's store (dynamo-transactions.ts answers
// it over HTTP). Built from dynalite's own pieces, so a condition, an update expression, a key,
// an index or a size limit means here what it means in dynalite's PutItem, UpdateItem and
// DeleteItem:
// - each action is checked by that action's own request validations (which parse its
//   expressions), its key against the table by dynalite's key checks;
// - every key the transaction touches is locked with the per-key locks dynalite's single-item
//   writes take, one after another in one sorted order (two transactions never wait on each
//   other in a circle), then every item is read, every condition checked, and only when all
//   hold are all its writes (items, and index entries as dynalite's updateIndexes says) made in
//   one LevelDB batch before any lock is released: a concurrent single-item write waits for the
//   whole transaction, a read sees all of it or none, a process killed midway left none;
// - an Update is computed by dynalite's own UpdateItem, run on a staging store that sees the
//   locked item and keeps what it would write instead of writing it.

import updateItem from 'dynalite/actions/updateItem.js';
import db, {
  type TActionData,
  type TBatchOp,
  type TDone,
  type TDynaliteError,
  type TIndexDb,
  type TItem,
  type TItemDb,
  type TStore,
  type TTable,
} from 'dynalite/db/index.js';
import deleteItemRules from 'dynalite/validations/deleteItem.js';
import validations, { type TActionRules } from 'dynalite/validations/index.js';
import putItemRules from 'dynalite/validations/putItem.js';
import updateItemRules from 'dynalite/validations/updateItem.js';

const MAX_ACTIONS = 100;
export const DYNAMODB_ERROR = 'com.amazonaws.dynamodb.v20120810#';

type TKind = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

/** Per kind: whose validations check it, which members it may carry, which it must. */
const KINDS: Record<TKind, { rules: TActionRules; members: string[]; required: string[] }> = {
  Put: { rules: putItemRules, members: ['Item'], required: [] },
  Update: { rules: updateItemRules, members: ['Key', 'UpdateExpression'], required: ['UpdateExpression'] },
  Delete: { rules: deleteItemRules, members: ['Key'], required: [] },
  // A condition on an item, nothing written: DeleteItem's request without its write.
  ConditionCheck: { rules: deleteItemRules, members: ['Key'], required: ['ConditionExpression'] },
};
const COMMON_MEMBERS = [
  'TableName',
  'ConditionExpression',
  'ExpressionAttributeNames',
  'ExpressionAttributeValues',
];

interface TAction {
  kind: TKind;
  data: TActionData;
  table: TTable;
  /** dynalite's key of the item in its table's item store. */
  key: string;
  returnOldOnFailure: boolean;
  old?: TItem;
  /** What the transaction leaves: an item, null for none, undefined when it writes nothing. */
  next?: TItem | null;
}

interface TReason {
  Code: string;
  Message?: string;
  Item?: TItem;
}

export interface TRequest {
  TransactItems?: unknown;
  ClientRequestToken?: unknown;
  ReturnConsumedCapacity?: unknown;
}

/** Checks, locks, reads, checks every condition, writes all or nothing; the answer's body. */
export async function transactWriteItems(store: TStore, request: TRequest): Promise<object> {
  const items = request.TransactItems;
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_ACTIONS) {
    throw db.validationError(
      "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: " +
        `Member must have length between 1 and ${MAX_ACTIONS}`,
    );
  }
  const capacity = request.ReturnConsumedCapacity;
  if (capacity !== undefined && capacity !== 'TOTAL' && capacity !== 'INDEXES' && capacity !== 'NONE') {
    throw db.validationError(
      `1 validation error detected: Value '${String(capacity)}' at 'returnConsumedCapacity' failed to ` +
        'satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]',
    );
  }
  const actions: TAction[] = [];
  for (const item of items) actions.push(await parseAction(store, item));
  const seen = new Set<string>();
  for (const action of actions) {
    const id = `${action.table.TableName}\u0000${action.key}`;
    if (seen.has(id))
      throw db.validationError('Transaction request cannot include multiple operations on one item');
    seen.add(id);
  }

  const release = await lockAll(store, actions);
  try {
    for (const action of actions)
      action.old = await read(store.getItemDb(action.table.TableName), action.key);
    const reasons: TReason[] = [];
    for (const action of actions) reasons.push(await stage(store, action));
    if (reasons.some((r) => r.Code !== 'None')) throw canceled(reasons);
    await commit(store, actions);
  } finally {
    release();
  }
  return capacity === 'TOTAL' || capacity === 'INDEXES'
    ? { ConsumedCapacity: consumed(actions, capacity) }
    : {};
}

async function parseAction(store: TStore, item: unknown): Promise<TAction> {
  const present = item && typeof item === 'object' ? Object.entries(item).filter(([, v]) => v != null) : [];
  const [kind, member] = present[0] ?? [];
  if (present.length !== 1 || !(kind && kind in KINDS) || !member || typeof member !== 'object') {
    throw db.validationError('TransactItems can only contain one of Check, Put, Update or Delete');
  }
  const { rules, members, required } = KINDS[kind as TKind];
  const given = member as Record<string, unknown>;
  for (const name of required) {
    if (given[name] == null) {
      throw db.validationError(`The parameter '${name}' is required but was not present in the request`);
    }
  }
  const onFailure = given.ReturnValuesOnConditionCheckFailure;
  if (onFailure !== undefined && onFailure !== 'ALL_OLD' && onFailure !== 'NONE') {
    throw db.validationError(
      `1 validation error detected: Value '${String(onFailure)}' at 'returnValuesOnConditionCheckFailure' ` +
        'failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]',
    );
  }
  const picked = Object.fromEntries(
    [...COMMON_MEMBERS, ...members].filter((m) => m in given).map((m) => [m, given[m]]),
  );
  const data = validations.checkTypes(picked, rules.types);
  validations.checkValidations(data, rules.types, rules.custom, store);
  const table = await tableOf(store, data.TableName);
  const target = (kind === 'Put' ? data.Item : data.Key) as TItem;
  const invalid =
    kind === 'Put'
      ? db.validateItem(target, table)
      : (db.validateKey(target, table) ??
        (kind === 'Update' ? db.validateUpdates(undefined, data._updates, table) : undefined));
  if (invalid) throw invalid;
  return {
    kind: kind as TKind,
    data,
    table,
    key: db.createKey(target, table),
    returnOldOnFailure: onFailure === 'ALL_OLD',
  };
}

/**
 * Takes each key's lock one after another in one order (table, then key), so that two
 * transactions sharing keys queue instead of each holding what the other waits for. dynalite's
 * single-item writes hold one lock at a time, so they never wait on a transaction in a circle.
 */
async function lockAll(store: TStore, actions: TAction[]): Promise<() => void> {
  const ordered = [...actions].sort((a, b) =>
    a.table.TableName === b.table.TableName
      ? a.key < b.key
        ? -1
        : a.key > b.key
          ? 1
          : 0
      : a.table.TableName < b.table.TableName
        ? -1
        : 1,
  );
  const releases: (() => void)[] = [];
  const releaseAll = () => {
    for (const release of releases.splice(0).reverse()) release();
  };
  try {
    for (const action of ordered) {
      const itemDb = store.getItemDb(action.table.TableName);
      releases.push(
        await new Promise<() => void>((resolve) =>
          itemDb.lock(action.key, (release) => resolve(release(() => {}))),
        ),
      );
    }
  } catch (err) {
    releaseAll();
    throw err;
  }
  return releaseAll;
}

/** Decides the action's outcome under the locks: its reason, and for an Update its new item. */
async function stage(store: TStore, action: TAction): Promise<TReason> {
  if (db.checkConditional(action.data, action.old)) {
    return {
      Code: 'ConditionalCheckFailed',
      Message: 'The conditional request failed',
      ...(action.returnOldOnFailure && action.old ? { Item: action.old } : {}),
    };
  }
  try {
    if (action.kind === 'Put') action.next = action.data.Item as TItem;
    else if (action.kind === 'Delete') action.next = null;
    else if (action.kind === 'Update') action.next = await stagedUpdate(store, action);
  } catch (err) {
    const known = err as TDynaliteError;
    if (!known.body) throw err;
    return { Code: 'ValidationError', Message: known.body.message ?? known.message };
  }
  return { Code: 'None' };
}

/**
 * The item dynalite's UpdateItem would write, computed by UpdateItem itself (its update
 * expressions, type checks and item size limit are not exported on their own) on a store that
 * answers with the item already read under the transaction's locks and keeps the write.
 */
function stagedUpdate(store: TStore, action: TAction): Promise<TItem> {
  let written: TItem | undefined;
  const itemDb: TItemDb = {
    lock: (_key, fn) => fn((done) => done),
    get: (_key, cb) => cb(null, action.old),
    put: (_key, item, cb) => {
      written = item;
      cb(null);
    },
    del: (_key, cb) => cb(null),
    batch: (_ops, cb) => cb(null),
  };
  const staging: TStore = {
    options: store.options,
    db: { batch: (_ops, cb) => cb(null) },
    // UpdateItem asks with (name, cb); the table is the one the transaction checked.
    getTable: (...args: unknown[]) =>
      (args[args.length - 1] as (e: null, t: TTable) => void)(null, action.table),
    getItemDb: () => itemDb,
    getIndexDb: () => ({
      put: (_key, _item, cb) => cb(null),
      del: (_key, cb) => cb(null),
      batch: (_ops, cb) => cb(null),
    }),
  };
  // The condition was checked on the same item; the key is copied because UpdateItem builds a
  // new item on the key object it is given.
  const data = {
    ...action.data,
    Key: { ...action.data.Key },
    _condition: undefined,
    ReturnValues: undefined,
  };
  return new Promise((resolve, reject) =>
    updateItem(staging, data, (err) => {
      if (err) reject(err);
      else if (written) resolve(written);
      else reject(new Error('dynalite UpdateItem wrote no item'));
    }),
  );
}

/**
 * Every write of the transaction, its items and their index entries, as one LevelDB batch:
 * atomic for readers (a GetItem or Query sees all of it or none) and for a process killed
 * midway. dynalite's updateIndexes says which index entries change, into recording stand-ins of
 * its index stores; each store's own `batch` prefixes the keys (see `prefixed`).
 */
async function commit(store: TStore, actions: TAction[]): Promise<void> {
  const writes: { to: TIndexDb; op: TBatchOp }[] = [];
  const recording = (to: TIndexDb): TIndexDb => ({
    put: (key, value, cb) => {
      writes.push({ to, op: { type: 'put', key, value } });
      cb(null);
    },
    del: (key, cb) => {
      writes.push({ to, op: { type: 'del', key } });
      cb(null);
    },
    batch: (_ops, cb) => cb(db.validationError('not expected from updateIndexes')),
  });
  const recorder = {
    ...store,
    getIndexDb: (type: string, table: string, index: string) =>
      recording(store.getIndexDb(type, table, index)),
  };
  for (const action of actions) {
    const next = action.next;
    if (next === undefined) continue;
    await done((cb) => db.updateIndexes(recorder, action.table, action.old, next ?? undefined, cb));
    const to = store.getItemDb(action.table.TableName);
    writes.push({
      to,
      op: next ? { type: 'put', key: action.key, value: next } : { type: 'del', key: action.key },
    });
  }
  if (writes.length === 0) return;
  const ops = prefixed(store, writes);
  await done((cb) => store.db.batch(ops, cb));
}

/**
 * The operations with their keys as the main database knows them. Each dynalite store prefixes
 * its keys itself and passes its batch straight to the main database's `batch`, so that is
 * caught for the moment of the (synchronous) calls rather than the prefixes written out here.
 */
function prefixed(store: TStore, writes: { to: TIndexDb; op: TBatchOp }[]): TBatchOp[] {
  const main = store.db;
  const batch = main.batch;
  const out: TBatchOp[] = [];
  main.batch = (ops) => {
    out.push(...ops);
  };
  try {
    for (const { to, op } of writes) to.batch([op], () => {});
  } finally {
    main.batch = batch;
  }
  if (out.length !== writes.length)
    throw new Error("dynalite's stores no longer batch through its main database");
  return out;
}

/** Write units per table, as DynamoDB counts a transaction: twice a single write's. */
function consumed(actions: TAction[], mode: 'TOTAL' | 'INDEXES') {
  const units = new Map<string, number>();
  for (const { table, old, next } of actions) {
    const largest = Math.max(db.capacityUnits(next ?? old, false), old ? db.capacityUnits(old, false) : 0);
    units.set(table.TableName, (units.get(table.TableName) ?? 0) + 2 * largest);
  }
  return [...units].map(([TableName, CapacityUnits]) => ({
    TableName,
    CapacityUnits,
    WriteCapacityUnits: CapacityUnits,
    ...(mode === 'INDEXES' ? { Table: { CapacityUnits, WriteCapacityUnits: CapacityUnits } } : {}),
  }));
}

function canceled(reasons: TReason[]): TDynaliteError {
  const message = `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`;
  const err = error(400, `${DYNAMODB_ERROR}TransactionCanceledException`, message);
  // DynamoDB names this exception's message member with a capital M.
  err.body = {
    __type: `${DYNAMODB_ERROR}TransactionCanceledException`,
    Message: message,
    CancellationReasons: reasons,
  };
  return err;
}

export function error(statusCode: number, type: string, message: string): TDynaliteError {
  const err: TDynaliteError = new Error(message);
  err.statusCode = statusCode;
  // dynalite sends no message where DynamoDB sends none (a body that is not JSON).
  err.body = message ? { __type: type, message } : { __type: type };
  return err;
}

function tableOf(store: TStore, name: string): Promise<TTable> {
  return new Promise((resolve, reject) =>
    store.getTable(name, true, (err, table) => (err || !table ? reject(err) : resolve(table))),
  );
}

function read(itemDb: TItemDb, key: string): Promise<TItem | undefined> {
  return new Promise((resolve, reject) =>
    itemDb.get(key, (err, item) =>
      err && err.name !== 'NotFoundError' ? reject(err) : resolve(item ?? undefined),
    ),
  );
}

function done(run: (cb: TDone) => void): Promise<void> {
  return new Promise((resolve, reject) => run((err) => (err ? reject(err) : resolve())));
}
