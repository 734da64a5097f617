import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { objectField, optionalString, readJsonObject } from '../../../src/cli/assembly/cdk-json';
import { CliError } from '../../../src/cli/command';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-json-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('readJsonObject', () => {
  test('the object a file holds', () => {
    expect(readJsonObject(write('ok.json', '{"app":"node app.js"}'))).toEqual({ app: 'node app.js' });
  });

  test('a file that cannot be read: a CliError with the system\'s code', () => {
    const file = path.join(tmp, 'missing.json');
    expect(() => readJsonObject(file)).toThrow(new CliError(`cannot read ${file}: ENOENT`));
  });

  test('bad JSON: the file, line and column the scanner finds', () => {
    const file = write('bad.json', '{\n  "app": "x",\n}');
    expect(() => readJsonObject(file)).toThrow(new CliError(`${file}:3:1: not valid JSON: a comma before '}': JSON allows no trailing comma`));
  });

  test.each([
    ['[]', 'a list'],
    ['"x"', '"x"'],
    ['null', 'null'],
  ])('%s is not an object: %s', (text, got) => {
    const file = write('not-object.json', text);
    expect(() => readJsonObject(file)).toThrow(new CliError(`${file}: must hold a JSON object ({ ... }), not ${got}`));
  });
});

describe('typed fields', () => {
  test('optionalString: absent, a string, or a CliError naming the file and key', () => {
    expect(optionalString({}, 'app', 'f')).toBeUndefined();
    expect(optionalString({ app: 'x' }, 'app', 'f')).toBe('x');
    expect(() => optionalString({ app: 1 }, 'app', 'f')).toThrow(new CliError('f: "app" must be a string (got 1)'));
  });

  test('objectField: absent is empty, an object is itself, else a CliError', () => {
    expect(objectField({}, 'context', 'f')).toEqual({});
    expect(objectField({ context: { a: 1 } }, 'context', 'f')).toEqual({ a: 1 });
    expect(() => objectField({ context: [] }, 'context', 'f')).toThrow(new CliError('f: "context" must be an object (got [])'));
  });
});
