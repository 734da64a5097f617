import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { libStaleness } from './compiled';

let root: string;

/** Writes `relative` under root with the given modification time (seconds since the epoch). */
function write(relative: string, mtime: number): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  fs.utimesSync(file, mtime, mtime);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-compiled-'));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

test('a lib/ compiled after every source file stands for src/', () => {
  write('src/cli/main.ts', 1000);
  write('src/outputs/deep/values.ts', 1500);
  write('lib/cli/main.js', 1000);
  write('lib/vendor/jose.js', 2000);
  expect(libStaleness(root)).toBeUndefined();
});

test('a source file changed after the last compile is named', () => {
  write('src/cli/main.ts', 1000);
  write('src/outputs/deep/values.ts', 3000);
  write('lib/cli/main.js', 2000);
  expect(libStaleness(root)).toBe(`${path.join('src', 'outputs', 'deep', 'values.ts')} changed after the last compile into lib/`);
});

test('no compiled CLI is named', () => {
  write('src/cli/main.ts', 1000);
  write('lib/index.js', 2000);
  expect(libStaleness(root)).toBe('lib/cli/main.js does not exist');
});
