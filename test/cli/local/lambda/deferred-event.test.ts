import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { deferEvent, EventBuilder, finishedEvent, isDeferredEvent, serializedPart, sizeFactorOf } from '../../../../src/cli/local/lambda/deferred-event';
import { MAX_REQUEST_PAYLOAD_BYTES } from '../../../../src/cli/local/lambda/limits';
import { requestTooLarge } from '../../../../src/cli/local/lambda/request-size';

let dir: string;
let builder: EventBuilder;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deferred-event-'));
  const module = path.join(dir, 'builder.js');
  fs.writeFileSync(module, 'exports.build = (input) => ({ built: true, twice: [input.text, input.text] });\n');
  builder = { module, exportName: 'build', sizeFactor: 2 };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a deferred event is plain JSON that crosses to another process and is built there as the builder makes it', () => {
  const deferred = deferEvent(builder, { text: 'pen' });
  expect(isDeferredEvent(deferred)).toBe(true);
  const crossed = JSON.parse(JSON.stringify(deferred));
  expect(isDeferredEvent(crossed)).toBe(true);
  expect(finishedEvent(crossed)).toEqual({ built: true, twice: ['pen', 'pen'] });
  expect(serializedPart(crossed)).toEqual({ text: 'pen' });
  expect(sizeFactorOf(crossed)).toBe(2);
});

test('a finished event is passed as it is', () => {
  const event = { resource: '/items', body: null };
  expect(isDeferredEvent(event)).toBe(false);
  expect(isDeferredEvent(null)).toBe(false);
  expect(isDeferredEvent('text')).toBe(false);
  expect(finishedEvent(event)).toBe(event);
  expect(sizeFactorOf(event)).toBe(1);
});

test('a builder that plain Node.js cannot load (a TypeScript source) builds the event at once', () => {
  const source = path.join(dir, 'builder.ts');
  fs.writeFileSync(source, 'export const build = (input: { text: string }) => ({ text: input.text.toUpperCase() });\n');
  // Under ts-jest, require() of a .ts file works; plain Node.js would refuse it, so it is not deferred.
  expect(deferEvent({ module: source, exportName: 'build', sizeFactor: 1 }, { text: 'pen' })).toEqual({ text: 'PEN' });
});

test('the 6 MB check counts a deferred event at its size factor and measures the built event exactly', () => {
  const half = 'x'.repeat(Math.floor(MAX_REQUEST_PAYLOAD_BYTES / 2) + 100);
  // The input is under 6 MB, the built event (the text twice) is over it.
  expect(requestTooLarge({ text: half })).toBeUndefined();
  const outcome = requestTooLarge(deferEvent(builder, { text: half }));
  expect(outcome).toMatchObject({ kind: 'rejected', statusCode: 413, errorType: 'RequestEntityTooLargeException' });
  // Small inputs are never built to be measured.
  expect(requestTooLarge(deferEvent(builder, { text: 'pen' }))).toBeUndefined();
});
