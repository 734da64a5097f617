import { UsageError } from '../../../src/cli/command';
import { parseDiffArgs } from '../../../src/cli/diff/arguments';

describe('diff arguments', () => {
  test("--json and FILE are diff's own; the rest goes to generate's parser", () => {
    const request = parseDiffArgs(['lib/config.json', '--stack', 'S', '--json', '--region', 'eu-west-1']);
    expect(request).toMatchObject({ file: 'lib/config.json', json: true, formatGiven: false });
    expect(request.generate).toMatchObject({ stack: 'S', region: 'eu-west-1', outDir: '.' });
    expect(request.generate.format?.name).toBe('json');
  });

  test('an option value is not taken for FILE, and FILE may follow --', () => {
    expect(parseDiffArgs(['--stack', 'x.json'])).toMatchObject({ file: undefined, json: false });
    expect(parseDiffArgs(['--stack=S', '--format', 'dart', '--', '--odd-name.dart'])).toMatchObject({ file: '--odd-name.dart', formatGiven: true });
  });

  test.each([
    [['--stack', 'S', '--out-dir', 'x'], 'diff writes nothing, so it takes no --out-dir'],
    [['--stack', 'S', 'a', 'b'], 'diff compares one FILE (got 2: a, b)'],
    [['--stack', 'S', ''], 'FILE needs a non-empty path'],
    [['--stack', 'S', '--json=1'], "Option '--json' does not take an argument"],
    [['--stack', 'S', '--nope'], "Unknown option '--nope'"],
    [['--outputs-file', 'o.json', '--region', 'eu-west-1'], '--region has no effect with --outputs-file'],
  ])('%j is a usage error', (args, message) => {
    expect(() => parseDiffArgs(args)).toThrow(UsageError);
    expect(() => parseDiffArgs(args)).toThrow(message);
  });
});
