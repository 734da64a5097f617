/**
 * JSONPath selection for `$input.path` and `$input.json`.
 */
import { selectPath } from '../../../../../src/cli/local/rest/mapping/json-path';

test('JSONPath: a definite path selects one value or nothing, an indefinite one a list', () => {
  const doc = { a: [{ b: 1 }, { b: 2 }] };
  expect(selectPath(doc, '$.a[0].b')).toBe(1);
  expect(selectPath(doc, '$.a[5].b')).toBeUndefined();
  expect(selectPath(doc, '$.a[*].b')).toEqual([1, 2]);
  expect(selectPath(doc, '$.zz[*]')).toEqual([]);
  expect(selectPath(doc, '')).toBe(doc);
});
