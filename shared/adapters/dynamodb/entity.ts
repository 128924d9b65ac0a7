// One declaration per entity: its name, the version of its item shape, and its key parts (the
// primary key and every index key it may set), each computed from the object. The item is
// built from the declaration and read back by stripping exactly what it declares, so a key
// attribute added to an entity cannot be forgotten on read. ElectroDB's entities are the model;
// ARCHITECTURE.md says why this is not ElectroDB.
import { INDEXES } from './table';

type TItem = Record<string, unknown>;
type TIndexes = typeof INDEXES;
type TIndexKey<I extends keyof TIndexes> = Record<
  TIndexes[I]['partitionKey'] | TIndexes[I]['sortKey'],
  string
>;

export type TPrimaryKey = { pk: string; sk: string };

/** What every item says about itself: its entity, and the version of that entity's item shape. */
export type TEntityMarkers = { entity: string; entityVersion: number };

export interface TEntitySpec<T> {
  name: string;
  /**
   * The shape of the stored attributes: raise it when they change shape, so a reader can tell an
   * older item. Items written before versions were stored have none (`decode` gets undefined).
   */
  version: number;
  key: (o: T) => TPrimaryKey;
  /** Each index key the item may carry; undefined keeps the item out of that (sparse) index. */
  indexes?: { [I in keyof TIndexes]?: (o: T) => TIndexKey<I> | undefined };
  /** The attributes as stored, where they are not the object's own (JSON text, a renamed attribute). */
  encode?: (o: T) => TItem;
  /** The object back from the stored attributes (keys and markers already stripped). */
  decode?: (attributes: TItem, version: number | undefined) => T;
}

export interface TEntity<T> {
  name: string;
  version: number;
  key: (o: T) => TPrimaryKey;
  /** Every attribute the key parts may set: what fromItem strips besides the markers. */
  keyAttributes: readonly string[];
  markers: TEntityMarkers;
  toItem: (o: T) => TItem;
  fromItem: (item: TItem) => T;
}

export function defineEntity<T>(spec: TEntitySpec<T>): TEntity<T> {
  const indexes = Object.entries(spec.indexes ?? {}) as [keyof TIndexes, (o: T) => TItem | undefined][];
  const keyAttributes = [
    'pk',
    'sk',
    ...indexes.flatMap(([name]) => [INDEXES[name].partitionKey, INDEXES[name].sortKey]),
  ];
  const markers: TEntityMarkers = { entity: spec.name, entityVersion: spec.version };
  const stripped = new Set([...keyAttributes, ...Object.keys(markers)]);
  return {
    name: spec.name,
    version: spec.version,
    key: spec.key,
    keyAttributes,
    markers,
    // Keys and markers last: no attribute of the object can stand in for them.
    toItem: (o) => ({
      ...(spec.encode ? spec.encode(o) : o),
      ...spec.key(o),
      ...Object.assign({}, ...indexes.map(([, keyOf]) => keyOf(o))),
      ...markers,
    }),
    fromItem: (item) => {
      const attributes = Object.fromEntries(Object.entries(item).filter(([name]) => !stripped.has(name)));
      const version = typeof item.entityVersion === 'number' ? item.entityVersion : undefined;
      return spec.decode ? spec.decode(attributes, version) : (attributes as T);
    },
  };
}

/**
 * The markers as an UpdateItem's SET clause, for items an update creates (counters, the files
 * record): `#entity = :entity, #entityVersion = :entityVersion` with its names and values.
 */
export function markersSet(e: { markers: TEntityMarkers }) {
  return {
    set: '#entity = :entity, #entityVersion = :entityVersion',
    names: { '#entity': 'entity', '#entityVersion': 'entityVersion' },
    values: { ':entity': e.markers.entity, ':entityVersion': e.markers.entityVersion },
  };
}
