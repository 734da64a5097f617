import { documentChanges } from '../../../src/cli/sandbox/document-changes';

describe('changes between two client configurations', () => {
  test('values added, removed and changed, by JSON pointer, in key order', () => {
    const before = { version: '1', custom: { api_endpoint: 'http://127.0.0.1:3000/dev/', old: 1, list: ['a'] } };
    const after = { version: '1', custom: { api_endpoint: 'http://127.0.0.1:3001/dev/', list: ['a', 'b'], new_key: 'x' }, storage: { bucket_name: 'b' } };
    expect(documentChanges(before, after)).toEqual([
      { pointer: '/custom/api_endpoint', kind: 'changed' },
      { pointer: '/custom/list', kind: 'changed' },
      { pointer: '/custom/new_key', kind: 'added' },
      { pointer: '/custom/old', kind: 'removed' },
      { pointer: '/storage', kind: 'added' },
    ]);
  });

  test('the same document: nothing', () => {
    expect(documentChanges({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 2 }] } })).toEqual([]);
  });

  test('keys with / and ~ are escaped', () => {
    expect(documentChanges({ custom: { 'a/b~': 1 } }, { custom: { 'a/b~': 2 } })).toEqual([{ pointer: '/custom/a~1b~0', kind: 'changed' }]);
  });

  test('from nothing (the first file)', () => {
    expect(documentChanges(undefined, { version: '1' })).toEqual([{ pointer: '', kind: 'changed' }]);
  });
});
