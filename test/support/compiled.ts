/**
 * The compiled package in lib/, which the tests that start a process (the CLI, a CDK app that
 * imports this library) run: it starts in a tenth of the time the TypeScript sources take through
 * ts-node, and it is what the package ships. `npx projen build` compiles before it tests; a lib/
 * older than src/ would test old code, so it is refused with what to run.
 */
import * as fs from 'fs';
import * as path from 'path';

/** Repository root. */
const ROOT = path.join(__dirname, '..', '..');
const LIB = path.join(ROOT, 'lib');

/** The newest modification time among the files under `dir` (0 when there is none), and that file. */
function newestFile(dir: string): { file: string; mtimeMs: number } {
  let newest = { file: '', mtimeMs: 0 };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const candidate = entry.isDirectory() ? newestFile(full) : { file: full, mtimeMs: fs.statSync(full).mtimeMs };
    if (candidate.mtimeMs > newest.mtimeMs) {
      newest = candidate;
    }
  }
  return newest;
}

/** Why `root`/lib cannot stand for `root`/src (no compiled CLI, or a source file newer than every compiled file), or undefined when it can. */
export function libStaleness(root: string): string | undefined {
  if (!fs.existsSync(path.join(root, 'lib', 'cli', 'main.js'))) {
    return 'lib/cli/main.js does not exist';
  }
  const source = newestFile(path.join(root, 'src'));
  const output = newestFile(path.join(root, 'lib'));
  if (source.mtimeMs > output.mtimeMs) {
    return `${path.relative(root, source.file)} changed after the last compile into lib/`;
  }
  return undefined;
}

let checked = false;

/** Throws, telling what to run, unless lib/ was compiled from the current src/. Checks once per process. */
export function requireCompiledLib(): void {
  if (checked) {
    return;
  }
  const problem = libStaleness(ROOT);
  if (problem) {
    throw new Error(`These tests run the compiled package, but ${problem}: run \`npx projen compile\` first (\`npx projen build\` does).`);
  }
  checked = true;
}

/** Absolute path of `relative` (e.g. `cli/main.js`) in the compiled lib/, once lib/ is known to be current. */
export function libFile(relative: string): string {
  requireCompiledLib();
  return path.join(LIB, relative);
}

/** The compiled `vendor-outputs` CLI, lib/cli/main.js (the package's bin). */
export function compiledCli(): string {
  return libFile(path.join('cli', 'main.js'));
}
