import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { failuresNaming, readJsonFile } from '../../../src/outputs/cdk-free/json-file';

class WordedError extends Error {}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'json-file-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('readJsonFile', () => {
  test('the parsed content, whatever JSON it holds', () => {
    expect(readJsonFile(write('object.json', '{"a":[1,null]}'))).toEqual({ a: [1, null] });
    expect(readJsonFile(write('list.json', '[1]'))).toEqual([1]);
    expect(readJsonFile(write('null.json', 'null'))).toBeNull();
  });

  test('a missing file: "cannot read FILE: ENOENT" by default', () => {
    const file = path.join(tmp, 'missing.json');
    expect(() => readJsonFile(file)).toThrow(new Error(`cannot read ${file}: ENOENT`));
  });

  test('a folder: the system\'s code (EISDIR)', () => {
    expect(() => readJsonFile(tmp)).toThrow(`cannot read ${tmp}: EISDIR`);
  });

  test('bad JSON: "FILE is not valid JSON: " and the parser\'s message by default', () => {
    const file = write('bad.json', '{"a":');
    let parserMessage = '';
    try {
      JSON.parse('{"a":');
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    expect(() => readJsonFile(file)).toThrow(new Error(`${file} is not valid JSON: ${parserMessage}`));
  });

  test('failuresNaming: the name and the error type the caller chose', () => {
    const file = write('named.json', 'nope');
    const failures = failuresNaming(`stack S's template ${file}`, WordedError);
    expect(() => readJsonFile(path.join(tmp, 'none.json'), failures)).toThrow(new WordedError(`cannot read stack S's template ${file}: ENOENT`));
    expect(() => readJsonFile(file, failures)).toThrow(WordedError);
    expect(() => readJsonFile(file, failures)).toThrow(/^stack S's template .*named\.json is not valid JSON: /);
  });

  test('the caller\'s own wording, with the text it read for locating the error', () => {
    const file = write('worded.json', '{\n  "a": tru\n}');
    const seen: string[] = [];
    const failures = {
      unreadable: (reason: string) => new WordedError(`${file}: cannot read: ${reason}`),
      invalid: (reason: string, text: string) => {
        seen.push(text);
        return new WordedError(`${file}: not valid JSON: ${reason}`);
      },
    };
    expect(() => readJsonFile(file, failures)).toThrow(/^.*worded\.json: not valid JSON: /);
    expect(seen).toEqual(['{\n  "a": tru\n}']);
    expect(() => readJsonFile(`${file}.gone`, failures)).toThrow(`${file}: cannot read: ENOENT`);
  });

  test('a caller that words an unreadable file with the system\'s whole message', () => {
    const file = path.join(tmp, 'absent.json');
    const failures = {
      unreadable: (_reason: string, message: string) => new WordedError(`cannot be read (${message})`),
      invalid: (reason: string) => new WordedError(reason),
    };
    expect(() => readJsonFile(file, failures)).toThrow(new WordedError(`cannot be read (ENOENT: no such file or directory, open '${file}')`));
  });
});
