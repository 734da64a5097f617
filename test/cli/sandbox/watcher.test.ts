import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { alwaysExcluded } from '../../../src/cli/sandbox/cdk-project';
import { WatchFilter } from '../../../src/cli/sandbox/watch-patterns';
import { ProjectWatcher } from '../../../src/cli/sandbox/watcher';

let dir: string;
let watcher: ProjectWatcher | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-watcher-'));
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.mkdirSync(path.join(dir, 'node_modules', 'pkg'), { recursive: true });
});
afterEach(() => {
  watcher?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts a watcher and returns a function that waits for the next batch. */
function watch(include: string[], exclude: string[] = []): () => Promise<string[]> {
  const batches: string[][] = [];
  let wake: (() => void) | undefined;
  watcher = new ProjectWatcher({
    root: dir,
    filter: new WatchFilter({ include, exclude: [...exclude, ...alwaysExcluded('cdk.out')] }),
    onChange: (files) => { batches.push(files); wake?.(); },
  });
  return () => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no change reported')), 10_000);
    const take = () => { clearTimeout(timer); resolve(batches.shift()!); };
    if (batches.length > 0) {
      take();
    } else {
      wake = take;
    }
  });
}

test('changes within the debounce window come as one sorted batch; excluded ones are left out', async () => {
  const next = watch(['**'], ['README.md']);
  fs.writeFileSync(path.join(dir, 'lib', 'stack.ts'), 'a');
  fs.writeFileSync(path.join(dir, 'app.ts'), 'b');
  fs.writeFileSync(path.join(dir, 'README.md'), 'c');
  fs.writeFileSync(path.join(dir, 'node_modules', 'pkg', 'index.js'), 'd');
  expect(await next()).toEqual(['app.ts', 'lib/stack.ts']);
});

test('a folder created after start is watched too', async () => {
  const next = watch(['**']);
  fs.mkdirSync(path.join(dir, 'lambda'));
  expect(await next()).toEqual(['lambda']);
  fs.writeFileSync(path.join(dir, 'lambda', 'index.js'), 'x');
  expect(await next()).toEqual(['lambda/index.js']);
});

test('only what include names', async () => {
  const next = watch(['lib']);
  fs.writeFileSync(path.join(dir, 'other.ts'), 'x');
  fs.writeFileSync(path.join(dir, 'lib', 'stack.ts'), 'y');
  expect(await next()).toEqual(['lib/stack.ts']);
});

test("sed -i: only the edited file, not sed's temporary copy renamed over it", async () => {
  fs.writeFileSync(path.join(dir, 'lib', 'stack.ts'), 'old');
  const next = watch(['**']);
  // What GNU sed -i does: a temporary file in the same folder, then renamed over the original.
  const temporary = path.join(dir, 'lib', 'sedAb12Cd');
  fs.writeFileSync(temporary, 'new');
  fs.renameSync(temporary, path.join(dir, 'lib', 'stack.ts'));
  expect(await next()).toEqual(['lib/stack.ts']);
});

test('a real sed -i edit names the file that exists', async () => {
  fs.writeFileSync(path.join(dir, 'app.ts'), 'const a = 1;\n');
  const next = watch(['**']);
  execFileSync('sed', ['-i', 's/1/2/', path.join(dir, 'app.ts')]);
  expect(await next()).toEqual(['app.ts']);
});

test("editors' swap, backup and lock files never trigger a change; the saved file does", async () => {
  const next = watch(['**']);
  for (const scratch of ['.app.ts.swp', 'app.ts~', '4913', '#app.ts#', 'app.ts___jb_tmp___', 'x.tmp']) {
    fs.writeFileSync(path.join(dir, scratch), 'scratch');
  }
  fs.writeFileSync(path.join(dir, 'app.ts'), 'saved');
  expect(await next()).toEqual(['app.ts']);
});

test('deleting a file that existed is a change', async () => {
  fs.writeFileSync(path.join(dir, 'lib', 'old.ts'), 'x');
  const next = watch(['**']);
  fs.rmSync(path.join(dir, 'lib', 'old.ts'));
  expect(await next()).toEqual(['lib/old.ts']);
});
