import { describe, expect, it } from 'vitest';
import { nedbModel } from './embedded-query';
import { storedJsonSize } from './stored-json-size';

const serialize = (nedbModel as unknown as { serialize(doc: unknown): string }).serialize;
const serializedBytes = (doc: unknown) => Buffer.byteLength(serialize(doc));

describe('storedJsonSize', () => {
  it('counts the bytes nedb writes for each document, without writing them', () => {
    const docs: unknown[] = [
      { _id: 'a'.repeat(24), name: 'Olivia Smith', email: 'olivia@example.com', createdAt: new Date(0) },
      { name: 'Chloé Søren 😀', note: 'a "quoted" back\\slash\nnew line\ttab\u0001', empty: '' },
      { n: 0, neg: -12.5, big: 1e21, tiny: 1e-7, yes: true, no: false, nothing: null, skipped: undefined },
      {
        list: [1, 'two', null, undefined, { deep: [new Date(1_700_000_000_000)] }],
        nested: { a: { b: {} } },
      },
      { items: [], value: { key: 'x' }, unicode: '\u2028\u2029', lone: '\ud800' },
    ];
    for (const doc of docs) expect(storedJsonSize(doc), JSON.stringify(doc)).toBe(serializedBytes(doc));
  });
});
