/**
 * Where the packages the Lambda Python runtime provides (boto3, botocore) come from here: the
 * site-packages of the app's virtualenv (`.venv` or `venv` in the CDK app's folder) when it has
 * one, then whatever the interpreter itself has installed. At start, each function's Python files
 * are scanned (a cheap text scan) for `import boto3` / `botocore`, and a package that does not
 * import is announced before any request.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { FunctionSpec } from '../../model/function-spec';

/** The packages Lambda's Python runtimes include. */
export const RUNTIME_PACKAGES = ['boto3', 'botocore'] as const;

const PACKAGE_IMPORT = /^\s*(?:import|from)\s+(boto3|botocore)\b/gm;

const MAX_FILES = 200;

/** `site-packages` folders of the app's virtualenv, the one matching `version` first. */
export function virtualenvSitePackages(appFolder: string | undefined, version?: string): string[] {
  if (appFolder === undefined) {
    return [];
  }
  const found: string[] = [];
  for (const venv of ['.venv', 'venv']) {
    const lib = path.join(appFolder, venv, 'lib');
    let entries: string[];
    try {
      entries = fs.readdirSync(lib);
    } catch {
      continue;
    }
    for (const entry of entries.filter((e) => /^python\d/.test(e)).sort((a, b) => Number(b === `python${version}`) - Number(a === `python${version}`))) {
      const sitePackages = path.join(lib, entry, 'site-packages');
      if (fs.existsSync(sitePackages)) {
        found.push(sitePackages);
      }
    }
  }
  return found;
}

/** The runtime packages a piece of Python imports, sorted. */
export function runtimeImportsIn(source: string): string[] {
  return [...new Set([...source.matchAll(PACKAGE_IMPORT)].map((m) => m[1]))].sort();
}

function pythonFilesOf(directory: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
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
      // Vendored packages (folders with their own dist-info) are not the function's code.
      if (entry.isDirectory() && depth < 3 && !entry.name.startsWith('.') && !entry.name.endsWith('.dist-info') && entry.name !== '__pycache__') {
        walk(full, depth + 1);
      } else if (entry.isFile() && entry.name.endsWith('.py')) {
        out.push(full);
      }
    }
  };
  walk(directory, 0);
  return out;
}

/** The runtime packages a function's code imports. */
export function runtimeImportsOf(fn: FunctionSpec): string[] {
  if (fn.code.kind === 'inline') {
    return runtimeImportsIn(fn.code.source);
  }
  if (fn.code.kind !== 'directory') {
    return [];
  }
  const found = new Set<string>();
  for (const file of pythonFilesOf(fn.code.directory)) {
    try {
      runtimeImportsIn(fs.readFileSync(file, 'utf8')).forEach((p) => found.add(p));
    } catch {
      // Unreadable: nothing to say about it.
    }
  }
  return [...found].sort();
}

/** Which of `packages` do not import with `python` and `pythonPath` from `directory` (a function's own vendored copy counts). */
export function missingPackages(python: string, pythonPath: string, directory: string | undefined, packages: readonly string[]): string[] {
  if (packages.length === 0) {
    return [];
  }
  const script = 'import importlib.util, sys\nfor name in sys.argv[1:]:\n    print(name if importlib.util.find_spec(name) is None else "")';
  const result = spawnSync(python, ['-B', '-c', script, ...packages], {
    cwd: directory,
    env: { ...process.env, PYTHONPATH: [directory, pythonPath].filter((p) => p !== undefined && p !== '').join(path.delimiter) },
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (result.status !== 0) {
    return [];
  }
  return result.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}
