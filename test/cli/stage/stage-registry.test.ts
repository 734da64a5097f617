import { spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gitPath } from '../../../src/cli/stage/git';
import { currentProcess } from '../../../src/cli/stage/process-identity';
import { StageRegistry } from '../../../src/cli/stage/stage-registry';
import { locate, Target } from '../../../src/cli/stage/target';

let dir: string;
let target: Target;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stage-registry-')));
  expect(spawnSync('git', ['init', '-q'], { cwd: dir }).status).toBe(0);
  fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), '{}\n');
  target = locate('vendor_outputs.json', dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function stateFile(): string {
  const id = createHash('sha256').update(target.relative).digest('hex').slice(0, 16);
  return path.join(gitPath(target.top, 'vendor-outputs-stage'), `${id}.json`);
}

/** Joins and leaves once, with `content` in the state file beforehand (undefined: no file); the notes printed. */
async function joinWith(content: string | undefined): Promise<string[]> {
  const registry = new StageRegistry(target);
  fs.rmSync(stateFile(), { force: true });
  if (content !== undefined) {
    fs.writeFileSync(stateFile(), content);
  }
  const notes: string[] = [];
  const me = currentProcess();
  const before = await registry.join(me, (line) => notes.push(line));
  expect(fs.existsSync(stateFile())).toBe(true);
  expect(await registry.leave(me, before)).toEqual({ kind: 'restored', tracked: false });
  expect(fs.existsSync(stateFile())).toBe(false);
  return notes;
}

describe('the state file', () => {
  test('none: the first run starts one, nothing to say', async () => {
    expect(await joinWith(undefined)).toEqual([]);
  });

  test.each([
    ['not JSON', '{"path":'],
    ['not an object', '[]'],
    ['null', 'null'],
    ['another path', '{"path":"other.json","before":"","added":"","runs":[]}'],
    ['a run that is no process', '{"path":"vendor_outputs.json","before":"","added":"","runs":[{"pid":-1}]}'],
  ])('%s: ignored and replaced, with a note', async (_, content) => {
    expect(await joinWith(content)).toEqual([`ignored ${stateFile()}: it is not a state file this version of stage wrote`]);
  });
});
