import { changeLines, changeReport, Comparison, isEqual, LAYOUT_LINE } from '../../../src/cli/diff/change-report';

function comparison(partial: Partial<Comparison>): Comparison {
  return { file: 'vendor_outputs.json', missing: false, changes: [], layoutDiffers: false, ...partial };
}

describe('change lines', () => {
  test('one notation per kind of change, values as JSON', () => {
    const lines = changeLines(comparison({
      changes: [
        { op: 'order', pointer: '/auth', old: ['b', 'a'], new: ['a', 'b'] },
        { op: 'replace', pointer: '/data/url', old: 'old', new: 'new' },
        { op: 'add', pointer: '/storage/bucket_name', new: 'b' },
        { op: 'remove', pointer: '/geo', old: { maps: { items: {} } } },
        { op: 'replace', pointer: '', old: [], new: { version: '1' } },
      ],
      layoutDiffers: true,
    }));
    expect(lines).toEqual([
      '! /auth: key order differs (generate writes: a, b)',
      '~ /data/url: "old" -> "new"',
      '+ /storage/bucket_name: "b"',
      '- /geo: {"maps":{"items":{}}}',
      '~ /: [] -> {"version":"1"}',
      LAYOUT_LINE,
    ]);
  });

  test('secrets show only that they changed, were added or removed', () => {
    expect(changeLines(comparison({
      changes: [
        { op: 'replace', pointer: '/data/api_key', old: 'k1', new: 'k2' },
        { op: 'add', pointer: '/custom/token', new: 't' },
        { op: 'remove', pointer: '/custom/password', old: 'p' },
        { op: 'add', pointer: '/data', new: { url: 'u', api_key: 'k3' } },
      ],
    }))).toEqual([
      '~ /data/api_key: (secret changed)',
      '+ /custom/token: (secret)',
      '- /custom/password: (secret)',
      '+ /data: {"url":"u","api_key":"(secret)"}',
    ]);
  });

  test('control characters in keys are escaped, so a change stays one line', () => {
    expect(changeLines(comparison({
      changes: [
        { op: 'add', pointer: '/custom/a\nb\u001b[31m', new: 'v\n' },
        { op: 'order', pointer: '/custom', old: ['x\r', 'y'], new: ['y', 'x\r'] },
      ],
    }))).toEqual([
      '+ /custom/a\\u000ab\\u001b[31m: "v\\n"',
      '! /custom: key order differs (generate writes: y, x\\u000d)',
    ]);
  });

  test('a long key list is shortened', () => {
    const keys = Array.from({ length: 30 }, (_, i) => `key_${i}`);
    const [line] = changeLines(comparison({ changes: [{ op: 'order', pointer: '/custom', old: [...keys].reverse(), new: keys }] }));
    expect(line).toMatch(/^! \/custom: key order differs \(generate writes: key_0, key_1, .*\.\.\.\)$/);
    expect(line.length).toBeLessThan(140);
  });
});

describe('the --json document', () => {
  test('values in full, secrets left out', () => {
    const long = 'x'.repeat(500);
    expect(changeReport(comparison({
      changes: [
        { op: 'replace', pointer: '/custom/note', old: long, new: 'n' },
        { op: 'replace', pointer: '/data/api_key', old: 'k1', new: 'k2' },
        { op: 'remove', pointer: '/custom/gone', old: { token: 't', a: 1 } },
        { op: 'order', pointer: '/auth', old: ['b', 'a'], new: ['a', 'b'] },
      ],
      layoutDiffers: true,
    }), '/abs/vendor_outputs.json')).toEqual({
      equal: false,
      file: '/abs/vendor_outputs.json',
      missing: false,
      changes: [
        { op: 'replace', path: '/custom/note', old: long, new: 'n' },
        { op: 'replace', path: '/data/api_key', secret: true },
        { op: 'remove', path: '/custom/gone', old: { token: '(secret)', a: 1 } },
        { op: 'order', path: '/auth', old: ['b', 'a'], new: ['a', 'b'] },
        { op: 'layout' },
      ],
    });
  });

  test('equal only when nothing differs and the file exists', () => {
    expect(isEqual(comparison({}))).toBe(true);
    expect(isEqual(comparison({ layoutDiffers: true }))).toBe(false);
    expect(isEqual(comparison({ missing: true }))).toBe(false);
    expect(isEqual(comparison({ changes: [{ op: 'add', pointer: '/a', new: 1 }] }))).toBe(false);
  });
});
