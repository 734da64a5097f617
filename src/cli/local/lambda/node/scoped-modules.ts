/**
 * A CommonJS loader of one execution environment: the handler module and every module it requires
 * are evaluated for this environment alone (their own `module.exports`, module-level variables and
 * init), as in an environment of its own on Lambda, while all environments of a function share the
 * runtime host's thread and its JavaScript realm (so `instanceof Error`, `Uint8Array` and the
 * event's objects behave as on Lambda; a `vm` context would give each its own built-ins).
 *
 * Modules are resolved as Node.js resolves them (`require.resolve` of a require made for the
 * requiring file); Node's built-ins are shared. A module that cannot be evaluated here (an ES
 * module, a native addon) comes from the host's own `require`, shared by the function's
 * environments: say so in the README. Node.js maps stack traces through source maps only for what
 * its own loader compiled, so a function with source maps on runs in worker threads (host.ts).
 */
import * as fs from 'fs';
import { createRequire, isBuiltin } from 'module';
import * as path from 'path';
import * as vm from 'vm';

/** What a module's wrapper receives besides the CommonJS five: the environment's own globals. */
export interface ScopeGlobals {
  readonly [name: string]: unknown;
}

/** One evaluated module, as `module` inside it. */
export interface ScopedModule {
  id: string;
  filename: string;
  path: string;
  exports: unknown;
  loaded: boolean;
  paths: string[];
  children: ScopedModule[];
  require: NodeJS.Require;
}

/**
 * The start of Node's CommonJS wrapper, inside a function whose parameters are the environment's
 * globals: a module may still declare its own `process` or `setTimeout` at its top level (a
 * parameter of the same function could not be declared again). On the module's first line, so
 * lines keep their numbers (the column offset takes it back out of line 1's columns).
 */
const COMMONJS_HEAD = 'return function (exports, require, module, __filename, __dirname) {';

/**
 * `import()` inside a module resolves with the host's loader (an ES module is shared by the
 * environments); Node.js versions without this constant refuse `import()` in such modules.
 */
const DYNAMIC_IMPORT: vm.CompileFunctionOptions['importModuleDynamically'] = (vm as unknown as { constants?: { USE_MAIN_CONTEXT_DEFAULT_LOADER?: unknown } }).constants
  ?.USE_MAIN_CONTEXT_DEFAULT_LOADER as never;

/** The environment's registry of evaluated modules and the `require` each module gets. */
export class ScopedModules {
  /** By absolute file name (what `require.cache` shows). */
  private readonly cache: Record<string, ScopedModule> = Object.create(null);
  private readonly globalNames: string[];
  private readonly globalValues: unknown[];
  /** Built-ins the environment sees as its own (`process`, `child_process`), by name without `node:`. */
  private readonly builtins: ReadonlyMap<string, unknown>;

  constructor(globals: ScopeGlobals, builtins: ReadonlyMap<string, unknown>) {
    this.globalNames = Object.keys(globals);
    this.globalValues = this.globalNames.map((name) => globals[name]);
    this.builtins = builtins;
  }

  /** Loads the environment's copy of `file` (an absolute path). */
  load(file: string): unknown {
    return this.requireFrom(undefined, file);
  }

  private requireFrom(parent: ScopedModule | undefined, resolved: string): unknown {
    const cached = this.cache[resolved];
    if (cached !== undefined) {
      return cached.exports;
    }
    if (!isEvaluatedHere(resolved)) {
      return createRequire(parent?.filename ?? resolved)(resolved);
    }
    const module = this.newModule(resolved);
    parent?.children.push(module);
    this.cache[resolved] = module;
    try {
      this.evaluate(module);
    } catch (error) {
      delete this.cache[resolved];
      throw error;
    }
    module.loaded = true;
    return module.exports;
  }

  private newModule(filename: string): ScopedModule {
    const directory = path.dirname(filename);
    const paths = nodeModulePaths(directory);
    const module = { id: filename, filename, path: directory, exports: {}, loaded: false, children: [], paths } as unknown as ScopedModule;
    module.require = this.requireFor(module);
    return module;
  }

  /** The `require` a module gets: built-ins shared, files evaluated in this environment. */
  private requireFor(module: ScopedModule): NodeJS.Require {
    const hostRequire = createRequire(module.filename);
    const require = ((request: string) => {
      if (typeof request !== 'string') {
        return hostRequire(request);
      }
      const builtin = this.builtin(request);
      if (builtin !== undefined) {
        return builtin;
      }
      if (isBuiltin(request)) {
        return hostRequire(request);
      }
      return this.requireFrom(module, hostRequire.resolve(request));
    }) as NodeJS.Require;
    require.resolve = hostRequire.resolve;
    require.cache = this.cache as unknown as NodeJS.Require['cache'];
    require.extensions = hostRequire.extensions;
    require.main = undefined;
    return require;
  }

  private builtin(request: string): unknown {
    return this.builtins.get(request.startsWith('node:') ? request.slice(5) : request);
  }

  private evaluate(module: ScopedModule): void {
    const source = fs.readFileSync(module.filename, 'utf8');
    if (module.filename.endsWith('.json')) {
      module.exports = parseJsonModule(source, module.filename);
      return;
    }
    const scoped = vm.compileFunction(`${COMMONJS_HEAD}${withoutHashbang(source)}\n}`, this.globalNames, {
      filename: module.filename,
      columnOffset: -COMMONJS_HEAD.length,
      importModuleDynamically: DYNAMIC_IMPORT,
    });
    const wrapper = scoped(...this.globalValues) as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, module.require, module, module.filename, module.path);
  }
}

/** JavaScript and JSON files are evaluated for the environment; ES modules and addons are not. */
function isEvaluatedHere(file: string): boolean {
  if (file.endsWith('.json') || file.endsWith('.cjs')) {
    return true;
  }
  return file.endsWith('.js') && !isEsmPackageFile(file);
}

/** Folder → whether its nearest `package.json` says `"type": "module"` (every environment asks again). */
const esmFolders = new Map<string, boolean>();

/** Whether a `.js` file is an ES module: the nearest `package.json` says `"type": "module"`. */
export function isEsmPackageFile(file: string): boolean {
  return isEsmFolder(path.dirname(file));
}

function isEsmFolder(dir: string): boolean {
  let known = esmFolders.get(dir);
  if (known === undefined) {
    const manifest = path.join(dir, 'package.json');
    known = fs.existsSync(manifest) ? manifestSaysModule(manifest) : path.dirname(dir) !== dir && isEsmFolder(path.dirname(dir));
    esmFolders.set(dir, known);
  }
  return known;
}

function manifestSaysModule(manifest: string): boolean {
  try {
    return JSON.parse(fs.readFileSync(manifest, 'utf8')).type === 'module';
  } catch {
    return false;
  }
}

/** The `node_modules` folders a module looks in, nearest first (as `module.paths`). */
function nodeModulePaths(from: string): string[] {
  const out: string[] = [];
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') {
      out.push(path.join(dir, 'node_modules'));
    }
    if (path.dirname(dir) === dir) {
      return out;
    }
  }
}

/** A `#!` first line is a comment to Node.js's loader, a syntax error to a function body. */
function withoutHashbang(source: string): string {
  return source.startsWith('#!') ? `//${source}` : source;
}

function parseJsonModule(source: string, file: string): unknown {
  try {
    return JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  } catch (error) {
    (error as Error).message = `${file}: ${(error as Error).message}`;
    throw error;
  }
}
