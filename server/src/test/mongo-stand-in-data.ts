import { Query } from 'mingo';
import { compare } from 'mingo/util';
import { BSON, type Document } from 'mongodb';

// How the MongoDB stand-in (mongo-stand-in.ts) keeps and reads its data: filters, sorts, unique
// indexes, cursors and sizes, in the shapes MongoDB answers with.

export interface StandInIndex {
  name: string;
  key: Record<string, number>;
  unique?: boolean;
  sparse?: boolean;
}

export interface StandInCollection {
  docs: Document[];
  indexes?: StandInIndex[];
}

export type StandInData = Record<string, Record<string, StandInCollection>>;

export const ID_INDEX: StandInIndex = { name: '_id_', key: { _id: 1 } };

export const matching = (docs: Document[], filter: Document | undefined) =>
  docs.filter((doc) => new Query(filter ?? {}).test(doc));

export function ordering(sort: Record<string, number>) {
  return (a: Document, b: Document) => {
    for (const [field, direction] of Object.entries(sort)) {
      const order = compare(a[field], b[field]);
      if (order !== 0) return order * direction;
    }
    return 0;
  };
}

/** The pipeline the driver's countDocuments sends: $match, then $skip and $limit, then $group. */
export function countDocuments(ns: string, docs: Document[], pipeline: Document[]): Document {
  let found = matching(docs, pipeline[0]!.$match);
  for (const stage of pipeline.slice(1)) {
    if (stage.$skip) found = found.slice(stage.$skip);
    if (stage.$limit) found = found.slice(0, stage.$limit);
  }
  return cursor(ns, found.length ? [{ _id: 1, n: found.length }] : []);
}

export function cursor(ns: string, firstBatch: Document[]): Document {
  return { cursor: { id: BSON.Long.fromInt(0), ns, firstBatch }, ok: 1 };
}

/** MongoDB's duplicate-key error for the first unique index (_id included) `doc` would break. */
export function duplicateOf(coll: StandInCollection, doc: Document, replacing?: Document): Document | null {
  for (const index of indexesOf(coll)) {
    if (index !== ID_INDEX && !index.unique) continue;
    const fields = Object.keys(index.key);
    const values = fields.map((field) => valueAt(doc, field));
    if (index.sparse && values.every((value) => value === undefined)) continue;
    const taken = coll.docs.some(
      (held) =>
        held !== replacing && fields.every((field, i) => compare(valueAt(held, field), values[i]) === 0),
    );
    if (!taken) continue;
    const keyValue = Object.fromEntries(fields.map((field, i) => [field, values[i] ?? null]));
    return {
      code: 11000,
      errmsg: `E11000 duplicate key error collection index: ${index.name} dup key: ${JSON.stringify(keyValue)}`,
      keyPattern: index.key,
      keyValue,
    };
  }
  return null;
}

const valueAt = (doc: Document, field: string): unknown =>
  field.split('.').reduce<unknown>((value, part) => (value as Document | undefined)?.[part], doc);

export function noSuchCommand(name: string): Document {
  return { ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: `no such command: '${name}'` };
}

export const sizeOf = (docs: Document[]) => docs.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0);
export const sizeOfDb = (db: Record<string, StandInCollection>) =>
  Object.values(db).reduce((sum, c) => sum + sizeOf(c.docs) * 2, 0);
export const indexesOf = (coll: StandInCollection): StandInIndex[] => [ID_INDEX, ...(coll.indexes ?? [])];
