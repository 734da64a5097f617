/**
 * Which Node.js runs a function: the major its runtime names, fetched from the npm registry (Node's
 * official builds as npm packages) into a per-user cache once, then reused; this machine's Node.js
 * with `--node host`, or when the registry cannot be reached (with why).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheRoot, chooseNodeBinaries, majorOf, nodeBinaryFor, nodeMajorOf } from '../../../../../src/cli/local/lambda/node/node-binaries';

const HOST_MAJOR = majorOf(process.version);
const OTHER_MAJOR = HOST_MAJOR === 22 ? 20 : 22;

let cache: string;

beforeEach(() => {
  cache = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-node-cache-'));
});

afterEach(() => {
  fs.rmSync(cache, { recursive: true, force: true });
});

test('Node.js majors of runtimes and versions', () => {
  expect(nodeMajorOf('nodejs22.x')).toBe(22);
  expect(nodeMajorOf('python3.12')).toBeUndefined();
  expect(majorOf('v24.21.0')).toBe(24);
});

test('another major is fetched once, with one progress line, then taken from the cache', () => {
  const shell = { ...process.env, VENDOR_OUTPUTS_CACHE_DIR: cache };
  const progress: string[] = [];
  expect(chooseNodeBinaries([OTHER_MAJOR, OTHER_MAJOR, HOST_MAJOR], 'runtime', shell, (line) => progress.push(line))).toEqual(new Map());
  expect(progress).toEqual([
    `Fetching Node.js ${OTHER_MAJOR} for nodejs${OTHER_MAJOR}.x functions from the npm registry (node-${process.platform}-${process.arch}@${OTHER_MAJOR}; once, cached in ${path.join(cache, 'node', String(OTHER_MAJOR))})...`,
  ]);
  const binary = nodeBinaryFor(OTHER_MAJOR);
  expect(binary.path.startsWith(path.join(cache, 'node', String(OTHER_MAJOR)))).toBe(true);
  expect(majorOf(binary.version)).toBe(OTHER_MAJOR);
  expect(nodeBinaryFor(HOST_MAJOR).path).toBe(process.execPath);
  // No staging folder is left behind.
  expect(fs.readdirSync(path.join(cache, 'node'))).toEqual([String(OTHER_MAJOR)]);

  const again: string[] = [];
  chooseNodeBinaries([OTHER_MAJOR], 'runtime', shell, (line) => again.push(line));
  expect(again).toEqual([]);
  expect(nodeBinaryFor(OTHER_MAJOR)).toEqual(binary);
}, 180_000);

test('--node host: every major on this machine\'s Node.js, nothing fetched', () => {
  const fallbacks = chooseNodeBinaries([OTHER_MAJOR], 'host', { ...process.env, VENDOR_OUTPUTS_CACHE_DIR: cache }, () => undefined);
  expect(fallbacks).toEqual(new Map([[OTHER_MAJOR, '--node host']]));
  expect(nodeBinaryFor(OTHER_MAJOR).path).toBe(process.execPath);
  expect(fs.existsSync(path.join(cache, 'node'))).toBe(false);
});

test('a registry that cannot be reached: this machine\'s Node.js, with npm\'s reason; no folder left in the cache', () => {
  const shell = { ...process.env, VENDOR_OUTPUTS_CACHE_DIR: cache, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', npm_config_cache: path.join(cache, 'npm') };
  const fallbacks = chooseNodeBinaries([23], 'runtime', shell, () => undefined);
  expect(fallbacks.get(23)).toMatch(/^Node\.js 23 could not be fetched: .*(ECONNREFUSED|request to http:\/\/127\.0\.0\.1:9)/);
  expect(nodeBinaryFor(23).path).toBe(process.execPath);
  expect(fs.readdirSync(path.join(cache, 'node'))).toEqual([]);
}, 60_000);

test('the cache: $VENDOR_OUTPUTS_CACHE_DIR, else $XDG_CACHE_HOME/vendor-outputs, else ~/.cache/vendor-outputs', () => {
  expect(cacheRoot({ VENDOR_OUTPUTS_CACHE_DIR: 'rel' })).toBe(path.resolve('rel'));
  expect(cacheRoot({ XDG_CACHE_HOME: '/x' })).toBe(path.join('/x', 'vendor-outputs'));
  expect(cacheRoot({})).toBe(path.join(os.homedir(), '.cache', 'vendor-outputs'));
});
