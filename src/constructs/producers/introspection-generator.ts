/**
 * Runs the Amplify toolchain's own model introspection generator
 * (`@aws-amplify/graphql-generator`, target `introspection`, which wraps
 * `@aws-amplify/appsync-modelgen-plugin`) on a GraphQL schema, synchronously, as construct code
 * must be. The package is an optional dependency of the user's app: it is loaded here, on first
 * use, and never by the CLI.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomic } from '../../outputs/cdk-free/atomic-write';
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../outputs/cdk-free/json-file';

/** The package, as the user installs it. */
export const GENERATOR_PACKAGE = '@aws-amplify/graphql-generator';

/** The part of the package used here (`generateModelsSync` since 0.5). */
interface GeneratorModule {
  generateModelsSync?(options: { schema: string; target: 'introspection' }): Record<string, string>;
}

/** A schema the generator refused, with where in the schema when it says. */
export class SchemaError extends Error {
  constructor(message: string, public readonly line?: number, public readonly column?: number) {
    super(message);
    this.name = 'SchemaError';
  }
}

/** Set to `off` to generate at every synth, without the cache. */
export const CACHE_VARIABLE = 'VENDOR_OUTPUTS_INTROSPECTION_CACHE';

/** One generation per distinct schema in a process: a sandbox or a test synthesizes many times. */
const generated = new Map<string, Record<string, unknown>>();

/**
 * The model introspection document of `schema`. Throws SchemaError for a schema the generator
 * refuses, and an Error saying how to install the generator when it is missing.
 *
 * Each document is also kept in the app's `node_modules/.cache/cdk-vendor-outputs/`, keyed by
 * the schema and the generator's version, so a synth whose schema did not change neither loads
 * nor runs the generator (loading it alone takes about half a second).
 */
export function generateIntrospection(schema: string): Record<string, unknown> {
  const resolved = resolveGenerator();
  const key = createHash('sha256').update(`${generatorVersion(resolved)}\0${schema}`).digest('hex');
  const known = generated.get(key) ?? readCache(key);
  if (known !== undefined) {
    generated.set(key, known);
    return structuredClone(known);
  }
  const document = runGenerator(resolved, schema);
  generated.set(key, document);
  writeCache(key, document);
  return structuredClone(document);
}

function runGenerator(resolved: string, schema: string): Record<string, unknown> {
  const generateModelsSync = loadGenerator(resolved);
  let files: Record<string, string>;
  try {
    files = generateModelsSync({ schema, target: 'introspection' });
  } catch (error) {
    throw asSchemaError(error, schema);
  }
  const text = Object.values(files)[0];
  if (text === undefined) {
    throw new Error(`${GENERATOR_PACKAGE} generated no model introspection file (it wrote: ${Object.keys(files).join(', ') || 'nothing'})`);
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** The generator's main file; the user's app installs it, so look from this package and from the app's directory. */
function resolveGenerator(): string {
  try {
    return require.resolve(GENERATOR_PACKAGE, { paths: [__dirname, process.cwd()] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') {
      throw error;
    }
    throw new Error(`ModelIntrospection.fromSchema needs the Amplify model generator: install it in your CDK app with 'npm install --save-dev ${GENERATOR_PACKAGE}@^0.5' `
      + '(or pass a document generated elsewhere to ModelIntrospection.fromDocument)');
  }
}

/** The installed generator's version, from the package.json above its main file. */
function generatorVersion(resolved: string): string {
  for (let dir = path.dirname(resolved); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const parsed = readJsonFile(manifest) as { name?: string; version?: string };
      if (parsed.name === GENERATOR_PACKAGE) {
        return `${parsed.version}@${dir}`;
      }
    }
  }
  return resolved;
}

function loadGenerator(resolved: string): NonNullable<GeneratorModule['generateModelsSync']> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const generator: GeneratorModule = require(resolved);
  const sync = generator.generateModelsSync;
  if (typeof sync !== 'function') {
    throw new Error(`the installed ${GENERATOR_PACKAGE} has no generateModelsSync (it arrived in 0.5): update it with 'npm install --save-dev ${GENERATOR_PACKAGE}@^0.5'`);
  }
  return sync.bind(generator);
}

/** The cache folder, or undefined when caching is off or the app has no node_modules. */
function cacheDir(): string | undefined {
  if (process.env[CACHE_VARIABLE] === 'off') {
    return undefined;
  }
  const modules = path.join(process.cwd(), 'node_modules');
  return fs.existsSync(modules) ? path.join(modules, '.cache', 'cdk-vendor-outputs', 'model-introspection') : undefined;
}

/** A cached document, or undefined on a miss (an unreadable or damaged entry is a miss). */
function readCache(key: string): Record<string, unknown> | undefined {
  const dir = cacheDir();
  if (dir === undefined) {
    return undefined;
  }
  try {
    const document = readJsonFile(path.join(dir, `${key}.json`));
    return isPlainObject(document) ? document : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a document for the next synth; a cache that cannot be written only costs the next synth time. */
function writeCache(key: string, document: Record<string, unknown>): void {
  const dir = cacheDir();
  if (dir === undefined) {
    return;
  }
  try {
    fs.mkdirSync(dir, { recursive: true });
    writeFileAtomic(path.join(dir, `${key}.json`), JSON.stringify(document));
  } catch {
    // Read-only node_modules (a container image, a CI cache): generate again next time.
  }
}

/**
 * A GraphQL error keeps its first location. The generator reports an unknown type without one,
 * so that one is located at the type's first use as a field, argument or list type.
 */
function asSchemaError(error: unknown, schema: string): SchemaError {
  const located = error as { message?: string; locations?: Array<{ line: number; column: number }> };
  const message = String(located.message ?? error);
  const location = Array.isArray(located.locations) ? located.locations[0] : unknownTypeUse(message, schema);
  return new SchemaError(message, location?.line, location?.column);
}

function unknownTypeUse(message: string, schema: string): { line: number; column: number } | undefined {
  const name = /^Unknown type:? "([_A-Za-z][_0-9A-Za-z]*)"/.exec(message)?.[1];
  const use = name === undefined ? null : new RegExp(`[:\\[]\\s*(?=${name}(?![_0-9A-Za-z]))`).exec(schema);
  if (use === null) {
    return undefined;
  }
  const before = schema.slice(0, use.index + use[0].length).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}
