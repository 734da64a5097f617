import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readmeBlocks } from './blocks';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-blocks-parse-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function readme(text: string): string {
  const file = path.join(dir, 'README.md');
  fs.writeFileSync(file, text);
  return file;
}

test('blocks are programs unless a marker on the line before (or one blank line above) says otherwise', () => {
  const file = readme([
    '# x', '```ts', 'const a = 1;', '```',
    '<!-- readme-test: stack -->', '```ts', 'new Thing(this);', '```',
    '<!-- readme-test: frontend -->', '', '```typescript', "import x from 'y';", '```',
    '```sh', 'npm test', '```',
  ].join('\n'));
  expect(readmeBlocks(file)).toEqual([
    { line: 2, kind: 'program', code: 'const a = 1;' },
    { line: 6, kind: 'stack', code: 'new Thing(this);' },
    { line: 11, kind: 'frontend', code: "import x from 'y';" },
  ]);
});

test('an unknown marker is an error naming the line and the allowed kinds', () => {
  const file = readme(['<!-- readme-test: skip -->', '```ts', 'x;', '```'].join('\n'));
  expect(() => readmeBlocks(file)).toThrow("README.md:2: unknown readme-test marker 'skip' (allowed: stack, frontend)");
});

test('a marker that is not right before a TypeScript block is an error', () => {
  const file = readme(['<!-- readme-test: stack -->', 'Some text.', '```ts', 'x;', '```'].join('\n'));
  expect(() => readmeBlocks(file)).toThrow('README.md:1: a readme-test marker must come right before a ```ts block');
});
