/**
 * The modules the Lambda Node.js runtime provides: the AWS SDK for JavaScript v3. NodejsFunction
 * leaves `@aws-sdk/*` out of the bundle, so locally it must come from the app's `node_modules`.
 * At start, each function's code is scanned (a cheap text scan of its JavaScript files) for the
 * SDK packages it imports, and those that do not resolve are announced before any request.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FunctionSpec } from '../../model/function-spec';

/** `require("@aws-sdk/x")`, `import ... from "@aws-sdk/x"`, `import("@aws-sdk/x")`, `import "@aws-sdk/x"`. */
const SDK_IMPORT = /(?:require\s*\(\s*|import\s*\(\s*|from\s*|import\s*)["'](@aws-sdk\/[A-Za-z0-9._-]+)/g;

/** Files scanned per function, and bytes per file: a bundle is one file; this bounds odd assets. */
const MAX_FILES = 200;
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The `@aws-sdk/*` packages a piece of JavaScript imports, sorted. */
export function sdkImportsIn(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(SDK_IMPORT)) {
    found.add(match[1]);
  }
  return [...found].sort();
}

/** JavaScript files of a code folder, its own `node_modules` left out. */
function scriptsOf(directory: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (out.length >= MAX_FILES) {
        return;
      }
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') {
        walk(full);
      } else if (entry.isFile() && /\.(?:js|mjs|cjs)$/.test(entry.name)) {
        out.push(full);
      }
    }
  };
  walk(directory);
  return out;
}

/** The SDK packages a function's code imports. */
export function sdkImportsOf(fn: FunctionSpec): string[] {
  if (fn.code.kind === 'inline') {
    return sdkImportsIn(fn.code.source);
  }
  if (fn.code.kind !== 'directory') {
    return [];
  }
  const found = new Set<string>();
  for (const file of scriptsOf(fn.code.directory)) {
    if (fs.statSync(file).size <= MAX_FILE_BYTES) {
      sdkImportsIn(fs.readFileSync(file, 'utf8')).forEach((p) => found.add(p));
    }
  }
  return [...found].sort();
}

/** Whether `pkg` resolves for code in `directory`: its `node_modules` chain, then `nodeModules`. */
export function resolves(pkg: string, directory: string | undefined, nodeModules: string | undefined): boolean {
  const candidates: string[] = [];
  for (let dir = directory; dir !== undefined;) {
    candidates.push(path.join(dir, 'node_modules'));
    const parent = path.dirname(dir);
    dir = parent === dir ? undefined : parent;
  }
  if (nodeModules !== undefined) {
    candidates.push(nodeModules);
  }
  return candidates.some((c) => fs.existsSync(path.join(c, pkg, 'package.json')));
}

/** Functions that import SDK packages that do not resolve, grouped by the set of missing packages. */
export interface MissingSdk {
  readonly packages: readonly string[];
  readonly functions: readonly FunctionSpec[];
}

export function missingSdkPackages(functions: Iterable<FunctionSpec>, nodeModules: string | undefined): MissingSdk[] {
  const groups = new Map<string, { packages: string[]; functions: FunctionSpec[] }>();
  for (const fn of functions) {
    const directory = fn.code.kind === 'directory' ? fn.code.directory : undefined;
    const missing = sdkImportsOf(fn).filter((pkg) => !resolves(pkg, directory, nodeModules));
    if (missing.length > 0) {
      const key = missing.join(' ');
      const group = groups.get(key) ?? { packages: missing, functions: [] };
      group.functions.push(fn);
      groups.set(key, group);
    }
  }
  return [...groups.values()];
}
