/**
 * The file a child process or worker thread starts from: the compiled `.js` of a module (the
 * package, `lib/`), or, when running from the TypeScript sources (tests through ts-node or
 * ts-jest), a JavaScript bundle of the `.ts` made once per process with esbuild, a development
 * dependency that the compiled package never loads. The bundle holds the module's packages too
 * (velocityjs from node_modules, where lib/ has them in lib/vendor/).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const bundles = new Map<string, string>();
let bundleDir: string | undefined;

/** Absolute path of a JavaScript file to start for module `name` of `directory` (a module's `__dirname`). */
export function entryFileIn(directory: string, name: string): string {
  const compiled = path.join(directory, `${name}.js`);
  if (fs.existsSync(compiled)) {
    return compiled;
  }
  const source = path.join(directory, `${name}.ts`);
  let bundle = bundles.get(source);
  if (bundle === undefined) {
    bundle = bundleTypeScript(source, name);
    bundles.set(source, bundle);
  }
  return bundle;
}

/** Name held in a constant so that the compiled package has no static reference to esbuild. */
const ESBUILD = 'esbuild';

function bundleTypeScript(source: string, name: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require(ESBUILD) as typeof import('esbuild');
  if (bundleDir === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-outputs-runtime-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    bundleDir = dir;
  }
  const outfile = path.join(bundleDir, `${name}.js`);
  esbuild.buildSync({ entryPoints: [source], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
  return outfile;
}
