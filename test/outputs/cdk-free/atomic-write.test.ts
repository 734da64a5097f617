import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { STALE_TEMP_AGE_MS, writeFileAtomic } from '../../../src/outputs/cdk-free/atomic-write';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-atomic-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The PID of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

function temps(): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')).sort();
}

describe('stale temporary files', () => {
  test('a temporary file of a writer that died is removed on the next write of the same file', () => {
    const target = path.join(dir, 'vendor_outputs.json');
    const stale = `.vendor_outputs.json.${deadPid()}.k3j4h5.tmp`;
    fs.writeFileSync(path.join(dir, stale), 'half a fi');
    writeFileAtomic(target, '{}\n');
    expect(temps()).toEqual([]);
    expect(fs.readFileSync(target, 'utf8')).toBe('{}\n');
  });

  test('one of a live writer stays, unless it is older than ten minutes', () => {
    const target = path.join(dir, 'vendor_outputs.json');
    const live = `.vendor_outputs.json.${process.ppid}.abc123.tmp`;
    const old = `.vendor_outputs.json.${process.ppid}.old999.tmp`;
    fs.writeFileSync(path.join(dir, live), 'in progress');
    fs.writeFileSync(path.join(dir, old), 'forgotten');
    const past = new Date(Date.now() - STALE_TEMP_AGE_MS - 60_000);
    fs.utimesSync(path.join(dir, old), past, past);
    writeFileAtomic(target, '{}\n');
    expect(temps()).toEqual([live]);
  });

  test('files that only look alike are left alone: another target, another pattern', () => {
    const pid = deadPid();
    const others = [`.other.json.${pid}.abc.tmp`, `.vendor_outputs.json.${pid}.ABC.tmp`, `.vendor_outputs.json.x${pid}.abc.tmp`, 'vendor_outputs.json.tmp'];
    for (const name of others) {
      fs.writeFileSync(path.join(dir, name), 'keep');
    }
    writeFileAtomic(path.join(dir, 'vendor_outputs.json'), '{}\n');
    expect(temps()).toEqual([...others].sort());
  });
});

describe('a replaced file keeps its mode', () => {
  test.each([0o600, 0o640, 0o755])('mode %o', (mode) => {
    const target = path.join(dir, 'vendor_outputs.json');
    fs.writeFileSync(target, 'old');
    fs.chmodSync(target, mode);
    writeFileAtomic(target, 'new');
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(fs.statSync(target).mode % 0o10000).toBe(mode);
  });

  test('a new file gets the default mode (0666 less the umask)', () => {
    const target = path.join(dir, 'new.json');
    writeFileAtomic(target, 'x');
    const umask = process.umask();
    expect(fs.statSync(target).mode % 0o10000).toBe(0o666 - (0o666 & umask)); // eslint-disable-line no-bitwise
  });
});

describe('a symbolic link as the target', () => {
  test('the file it points to is replaced atomically, next to it, and the link stays', () => {
    fs.mkdirSync(path.join(dir, 'real'));
    const real = path.join(dir, 'real', 'vendor_outputs.json');
    fs.writeFileSync(real, 'old');
    fs.chmodSync(real, 0o640);
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(path.join('real', 'vendor_outputs.json'), link);
    writeFileAtomic(link, 'new');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe('new');
    expect(fs.statSync(real).mode % 0o10000).toBe(0o640);
    expect(fs.readdirSync(path.join(dir, 'real'))).toEqual(['vendor_outputs.json']);
  });

  test('a chain of links, and a dangling link whose target does not exist yet', () => {
    const real = path.join(dir, 'target.json');
    fs.symlinkSync(real, path.join(dir, 'one.json'));
    fs.symlinkSync(path.join(dir, 'one.json'), path.join(dir, 'two.json'));
    writeFileAtomic(path.join(dir, 'two.json'), 'created');
    expect(fs.readFileSync(real, 'utf8')).toBe('created');
    expect(fs.lstatSync(path.join(dir, 'two.json')).isSymbolicLink()).toBe(true);
  });

  test('a loop of links is refused', () => {
    fs.symlinkSync(path.join(dir, 'b'), path.join(dir, 'a'));
    fs.symlinkSync(path.join(dir, 'a'), path.join(dir, 'b'));
    expect(() => writeFileAtomic(path.join(dir, 'a'), 'x')).toThrow(`${path.join(dir, 'a')}: too many levels of symbolic links`);
  });
});
