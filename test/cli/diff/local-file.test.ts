import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CliError } from '../../../src/cli/command';
import { checkNesting, MAX_NESTING, readLocalFile } from '../../../src/cli/diff/local-file';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-local-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('readLocalFile', () => {
  test('the text of a file, as it is', () => {
    const file = path.join(tmp, 'v.json');
    fs.writeFileSync(file, '{ "a": "✓" }\r\n');
    expect(readLocalFile(file)).toBe('{ "a": "✓" }\r\n');
  });

  test('a missing file, or a link to nothing, is undefined', () => {
    expect(readLocalFile(path.join(tmp, 'none.json'))).toBeUndefined();
    fs.symlinkSync(path.join(tmp, 'nowhere.json'), path.join(tmp, 'dangling.json'));
    expect(readLocalFile(path.join(tmp, 'dangling.json'))).toBeUndefined();
  });

  test('a folder is refused', () => {
    expect(() => readLocalFile(tmp)).toThrow(CliError);
    expect(() => readLocalFile(tmp)).toThrow(`${tmp} is not a regular file but a folder: give the client configuration file as FILE`);
  });

  test('bytes that are not UTF-8 are refused', () => {
    const file = path.join(tmp, 'latin1.json');
    fs.writeFileSync(file, Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
    expect(() => readLocalFile(file)).toThrow(`${file} is not valid UTF-8 text: generate writes UTF-8`);
  });

  test('a path through a file is an error naming the code', () => {
    const file = path.join(tmp, 'v.json');
    expect(() => readLocalFile(path.join(file, 'x.json'))).toThrow(`cannot read ${path.join(file, 'x.json')}: ENOTDIR`);
  });
});

describe('checkNesting', () => {
  function nested(depth: number): unknown {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) {
      value = i % 2 === 0 ? [value] : { k: value };
    }
    return value;
  }

  test('up to the limit is fine; one more level is refused', () => {
    expect(() => checkNesting(nested(MAX_NESTING), 'f.json')).not.toThrow();
    expect(() => checkNesting(nested(MAX_NESTING + 1), 'f.json')).toThrow(`f.json nests objects or lists deeper than ${MAX_NESTING} levels`);
  });

  test('a nesting far past what recursion could walk is refused, not a crash', () => {
    const text = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(() => checkNesting(JSON.parse(text), 'deep.json')).toThrow(CliError);
  });
});
