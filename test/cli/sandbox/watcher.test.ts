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
