/**
 * The CDK project the sandbox runs: what `cdk.json` (and `cdk.context.json`) say, read as the CDK
 * CLI reads them, and what `--app` overrides. `--app` is either a command (as `cdk.json`'s `app`)
 * or the directory of an already synthesized cloud assembly.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CDK_CONTEXT_JSON, CDK_JSON, objectField, optionalString, readJsonObject } from '../assembly/cdk-json';
import { CliError, UsageError } from '../command';

/** Where the app comes from. */
export type AppSource =
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'assembly'; readonly dir: string };

/** `cdk.json`'s `watch`, as patterns relative to the project root. */
export interface WatchPatterns {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

export interface CdkProject {
  /** The folder of `cdk.json` (the current directory when there is none). */
  readonly root: string;
  readonly app: AppSource;
  /** Absolute path of the CDK output directory (`output`, default `cdk.out`). */
  readonly output: string;
  /** `cdk.json`'s `context` over `cdk.context.json`'s (the CDK CLI gives cdk.json precedence). */
  readonly context: Record<string, unknown>;
  readonly watch: WatchPatterns;
}

/**
 * What `cdk watch` always leaves out, whatever `exclude` says: files and folders starting with a
 * dot, the output directory and node_modules (AWS CDK Developer Guide, `cdk watch`).
 */
export function alwaysExcluded(outputRelative: string): string[] {
  return ['**/.*', '**/.*/**', `${outputRelative}/**`, outputRelative, '**/node_modules/**', '**/node_modules'];
}

/** Reads the project in `cwd`; `appOption` is `--app` as given. */
export function readCdkProject(cwd: string, appOption: string | undefined): CdkProject {
  const root = path.resolve(cwd);
  const cdkJsonFile = path.join(root, CDK_JSON);
  const hasCdkJson = fs.existsSync(cdkJsonFile);
  if (!hasCdkJson && appOption === undefined) {
    throw new UsageError(`no ${CDK_JSON} in ${root}: run sandbox in the folder of your CDK app (where ${CDK_JSON} is), `
      + "or say what to run with --app 'node app.js' (a command) or --app cdk.out (a synthesized cloud assembly)");
  }
  const config = hasCdkJson ? readJsonObject(cdkJsonFile) : {};
  const output = path.resolve(root, optionalString(config, 'output', cdkJsonFile) ?? 'cdk.out');
  const app = appOption !== undefined ? appFromOption(appOption, root) : appFromConfig(config, cdkJsonFile);
  const contextFile = path.join(root, CDK_CONTEXT_JSON);
  const savedContext = fs.existsSync(contextFile) ? readJsonObject(contextFile) : {};
  const context = { ...savedContext, ...objectField(config, 'context', cdkJsonFile) };
  const watch = objectField(config, 'watch', cdkJsonFile);
  const outputRelative = path.relative(root, output).split(path.sep).join('/') || '.';
  return {
    root,
    app,
    output,
    context,
    watch: {
      include: patterns(watch, 'include', cdkJsonFile) ?? ['**'],
      exclude: [...(patterns(watch, 'exclude', cdkJsonFile) ?? []), ...alwaysExcluded(outputRelative)],
    },
  };
}

function appFromOption(option: string, root: string): AppSource {
  if (option.trim() === '') {
    throw new UsageError('--app needs a command (e.g. --app "node app.js") or the directory of a synthesized cloud assembly');
  }
  const dir = path.resolve(root, option);
  if (fs.existsSync(dir) && fs.statSync(dir).isDirectory()) {
    if (!fs.existsSync(path.join(dir, 'manifest.json'))) {
      throw new UsageError(`--app ${option} is a directory without manifest.json: pass a synthesized cloud assembly (e.g. cdk.out) or a command`);
    }
    return { kind: 'assembly', dir };
  }
  return { kind: 'command', command: option };
}

function appFromConfig(config: Record<string, unknown>, file: string): AppSource {
  const command = optionalString(config, 'app', file);
  if (command === undefined || command.trim() === '') {
    throw new UsageError(`${file} has no "app" (the command that runs your CDK app, e.g. "app": "node bin/app.js"); add one or pass --app`);
  }
  return { kind: 'command', command };
}

/** A `watch` key: one string or a list of strings, as `cdk watch` takes them. */
function patterns(watch: Record<string, unknown>, key: 'include' | 'exclude', file: string): string[] | undefined {
  const value = watch[key];
  if (value === undefined) {
    return undefined;
  }
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string')) {
    throw new CliError(`${file}: "watch.${key}" must be a string or a list of strings (got ${JSON.stringify(value)})`);
  }
  return list;
}
