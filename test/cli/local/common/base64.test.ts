/**
 * Strict base64, as the gateway decodes an `isBase64Encoded` body.
 */
import { isStrictBase64 } from '../../../../src/cli/local/common/base64';

test.each([
  ['', true],
  ['aGk=', true],
  ['aGk', true],
  ['aGVsbG8gd29ybGQ=', true],
  ['YQ==', true],
  ['YQ', true],
  ['+/+/', true],
  ['not base64!', false],
  ['aGk=aGk=', false],
  ['aGk==', false],
  ['YQ=', false],
  ['Y', false],
  ['aGVsbG8', true],
  ['aGVsbG', true],
  ['aGVsb', false],
  ['aG k=', false],
  ['aGk=\n', false],
  ['-_-_', false],
  ['====', false],
])('%j: %s', (text, valid) => {
  expect(isStrictBase64(text)).toBe(valid);
  if (valid) {
    // What a strict decoder reads is what Node reads too.
    expect(Buffer.from(Buffer.from(text, 'base64').toString('base64').replace(/=+$/, ''), 'base64').equals(Buffer.from(text, 'base64'))).toBe(true);
  }
});
