import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readKeyFile } from '../../../../../src/cli/local/auth/cognito/signing-key';
import { LocalApiError } from '../../../../../src/cli/local/common/local-api-error';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'signing-key-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('readKeyFile', () => {
  test('a missing file: the system\'s whole message, and what to do', () => {
    const file = path.join(tmp, 'missing.json');
    expect(() => readKeyFile(file)).toThrow(new LocalApiError(
      `the local signing key ${file} cannot be read (ENOENT: no such file or directory, open '${file}'); delete it and a new one is made`));
  });

  test('a file that is not JSON: the parser\'s message', () => {
    const file = path.join(tmp, 'bad.json');
    fs.writeFileSync(file, '{"privateKey":');
    let parserMessage = '';
    try {
      JSON.parse('{"privateKey":');
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    expect(() => readKeyFile(file)).toThrow(new LocalApiError(
      `the local signing key ${file} cannot be read (${parserMessage}); delete it and a new one is made`));
  });

  test.each([['null'], ['[]'], ['{"privateKey": []}'], ['{"privateKey": {"kty": "EC", "d": "x", "kid": "k"}}']])('%s: no RSA private key', (text) => {
    const file = path.join(tmp, 'shape.json');
    fs.writeFileSync(file, text);
    expect(() => readKeyFile(file)).toThrow(`the local signing key ${file} has no RSA private key at /privateKey; delete it and a new one is made`);
  });
});
