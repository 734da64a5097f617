/**
 * The shape of an outputs file (`{ stack: { key: string } }`) that offline generate reads.
 */
import { checkOutputs } from '../../../src/cli/rebuild/outputs-file';

describe('outputs file shape', () => {
  test('accepts { stack: { key: string } }', () => {
    expect(checkOutputs({ S: { K: 'v' }, T: {} }, 'f')).toEqual({ S: { K: 'v' }, T: {} });
  });

  test.each([
    [[], 'f: expected the JSON of'],
    ['x', 'f: expected the JSON of'],
    [{ S: [] }, 'f: the value of "S" is not an object'],
    [{ S: { K: null } }, 'f: "S"."K" is not a string (got null)'],
  ])('%j is refused', (value, message) => {
    expect(() => checkOutputs(value, 'f')).toThrow(message);
  });
});
