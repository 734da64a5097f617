import { documentChanges, jsonEqual, valueChanges } from '../../../src/cli/document-diff/document-changes';

describe('documentChanges', () => {
  test('equal documents have no change, whatever the type of their values', () => {
    const doc = { version: '1', n: 0, f: false, z: null, list: [1, { a: 'x' }], nested: { deep: { s: '' } } };
    expect(documentChanges(doc, structuredClone(doc))).toEqual([]);
  });

  test('values that differ only in type are replaced: false, 0, "" and null are all different', () => {
    expect(documentChanges({ a: false, b: 0, c: '', d: null }, { a: 0, b: '', c: null, d: false })).toEqual([
      { op: 'replace', pointer: '/a', old: false, new: 0 },
      { op: 'replace', pointer: '/b', old: 0, new: '' },
      { op: 'replace', pointer: '/c', old: '', new: null },
      { op: 'replace', pointer: '/d', old: null, new: false },
    ]);
  });

  test("changes come in the generated document's key order, removals after, at the highest differing pointer", () => {
    const local = { gone: 1, b: { x: 1, y: 2 }, a: 'same' };
    const generated = { a: 'same', c: { new: true }, b: { x: 1, y: 3 } };
    expect(documentChanges(local, generated)).toEqual([
      { op: 'order', pointer: '', old: ['gone', 'b', 'a'], new: ['a', 'c', 'b'] },
      { op: 'add', pointer: '/c', new: { new: true } },
      { op: 'replace', pointer: '/b/y', old: 2, new: 3 },
      { op: 'remove', pointer: '/gone', old: 1 },
    ]);
  });

  test('lists are compared whole', () => {
    expect(documentChanges({ l: ['a', 'b'] }, { l: ['a', 'c'] })).toEqual([{ op: 'replace', pointer: '/l', old: ['a', 'b'], new: ['a', 'c'] }]);
    expect(documentChanges({ l: ['a'] }, { l: ['a', 'b'] })).toEqual([{ op: 'replace', pointer: '/l', old: ['a'], new: ['a', 'b'] }]);
  });

  test('equal lists whose objects list their keys in another order report that order', () => {
    expect(documentChanges({ l: [{ b: 1, a: 2 }] }, { l: [{ a: 2, b: 1 }] })).toEqual([
      { op: 'order', pointer: '/l/0', old: ['b', 'a'], new: ['a', 'b'] },
    ]);
  });

  test('an object against a list or a string is one replacement; the root pointer is ""', () => {
    expect(documentChanges({ a: { b: 1 } }, { a: [1] })).toEqual([{ op: 'replace', pointer: '/a', old: { b: 1 }, new: [1] }]);
    expect(documentChanges([], { version: '1' })).toEqual([{ op: 'replace', pointer: '', old: [], new: { version: '1' } }]);
  });

  test('added keys alone do not make an order change; pointers escape ~ and /', () => {
    expect(documentChanges({ a: 1 }, { 'a/b~c': 0, 'a': 1 })).toEqual([{ op: 'add', pointer: '/a~1b~0c', new: 0 }]);
  });

  test('a key named __proto__ is a key like any other', () => {
    const local = JSON.parse('{"__proto__": {"x": 1}}');
    const generated = JSON.parse('{"__proto__": {"x": 2}}');
    expect(documentChanges(local, generated)).toEqual([{ op: 'replace', pointer: '/__proto__/x', old: 1, new: 2 }]);
  });
});

describe('jsonEqual', () => {
  test.each([
    [{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[1, 2], [2, 1], false],
    [[], {}, false],
    [null, {}, false],
    ['1', 1, false],
  ])('%j and %j: %s', (a, b, equal) => {
    expect(jsonEqual(a, b)).toBe(equal);
  });
});

describe('valueChanges (what a sandbox reload changed)', () => {
  test('values added, removed and changed, by JSON pointer, in key order', () => {
    const before = { version: '1', custom: { api_endpoint: 'http://127.0.0.1:3000/dev/', old: 1, list: ['a'] } };
    const after = { version: '1', custom: { api_endpoint: 'http://127.0.0.1:3001/dev/', list: ['a', 'b'], new_key: 'x' }, storage: { bucket_name: 'b' } };
    expect(valueChanges(before, after)).toEqual([
      { pointer: '/custom/api_endpoint', kind: 'changed' },
      { pointer: '/custom/list', kind: 'changed' },
      { pointer: '/custom/new_key', kind: 'added' },
      { pointer: '/custom/old', kind: 'removed' },
      { pointer: '/storage', kind: 'added' },
    ]);
  });

  test('the same document: nothing', () => {
    expect(valueChanges({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 2 }] } })).toEqual([]);
  });

  test('keys with / and ~ are escaped', () => {
    expect(valueChanges({ custom: { 'a/b~': 1 } }, { custom: { 'a/b~': 2 } })).toEqual([{ pointer: '/custom/a~1b~0', kind: 'changed' }]);
  });

  test('from nothing (the first file)', () => {
    expect(valueChanges(undefined, { version: '1' })).toEqual([{ pointer: '', kind: 'changed' }]);
  });

  test('keys are ordered key by key, not as pointer text: /a/x before /a-b', () => {
    expect(valueChanges({ 'a-b': 1, 'a': { x: 1 } }, { 'a': { x: 2 }, 'a-b': 2 })).toEqual([
      { pointer: '/a/x', kind: 'changed' },
      { pointer: '/a-b', kind: 'changed' },
    ]);
  });

  test('key order alone is no change', () => {
    expect(valueChanges({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toEqual([]);
  });
});
