/**
 * The preview of a value in a message: cut to a length, safe on deep nesting.
 */
import { formatValue } from '../../../src/outputs/cdk-free/validation';
import { PREVIEW_LENGTH, previewValue } from '../../../src/outputs/cdk-free/value-preview';

describe('previewValue', () => {
  test.each([
    ['a string', 'SOMETIMES'],
    ['a number', 8.5],
    ['null', null],
    ['an empty array', []],
    ['a small object', { a: [1, 'x', true, null], b: { c: 'd' } }],
    ['undefined and functions inside', { a: undefined, b: [undefined, () => 1], c: 1 }],
    ['a value with toJSON', { when: new Date(0) }],
    ['escapes', { 'quote"key': 'line\nbreak' }],
  ])('prints %s as JSON.stringify does', (_, value) => {
    expect(previewValue(value)).toBe(JSON.stringify(value));
  });

  test('cuts long values to the preview length, the start as JSON.stringify prints it', () => {
    const value = { list: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` })) };
    const preview = previewValue(value);
    expect(preview).toHaveLength(PREVIEW_LENGTH);
    expect(preview).toBe(`${JSON.stringify(value).slice(0, PREVIEW_LENGTH - 3)}...`);
    expect(previewValue('x'.repeat(1000))).toBe(`"${'x'.repeat(PREVIEW_LENGTH - 4)}...`);
  });

  test('a value nested 200,000 levels deep is previewed without exhausting the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) {
      deep = [deep];
    }
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(previewValue(deep)).toBe(`${'['.repeat(PREVIEW_LENGTH - 3)}...`);
  });

  test('what JSON cannot show is printed as String shows it', () => {
    expect(previewValue(undefined)).toBe('undefined');
    expect(previewValue(BigInt(10))).toBe('10');
  });

  test('formatValue is the preview', () => {
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });
});
