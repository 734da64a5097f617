/**
 * The lock file held by one stage run at a time.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FileMutex } from '../../../src/cli/stage/file-mutex';
import { currentProcess } from '../../../src/cli/stage/process-identity';

describe('FileMutex', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-mutex-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('is held by one at a time; a waiter that times out learns who holds it', async () => {
    const file = path.join(dir, 'lock');
    const first = new FileMutex(file);
    const second = new FileMutex(file);
    expect(await first.acquire(1000)).toBeUndefined();
    expect(await second.acquire(100)).toEqual(currentProcess());
    first.release();
    expect(await second.acquire(1000)).toBeUndefined();
    second.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  test('a lock whose owner has ended is taken over', async () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, JSON.stringify({ pid: spawnSync('true').pid }));
    const mutex = new FileMutex(file);
    expect(await mutex.acquire(1000)).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(currentProcess());
    mutex.release();
  });

  test('a lock being written (no owner yet) is waited for, not taken over', async () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, '');
    expect(await new FileMutex(file).acquire(200)).toEqual({ pid: 0 });
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });
});
