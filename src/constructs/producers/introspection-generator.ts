/**
 * Runs the Amplify toolchain's own model introspection generator
 * (`@aws-amplify/graphql-generator`, target `introspection`, which wraps
 * `@aws-amplify/appsync-modelgen-plugin`) on a GraphQL schema, synchronously, as construct code
 * must be. The package is an optional dependency of the user's app: it is loaded here, on first
 * use, and never by the CLI.
 */
import { createHash } from 'crypto';

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

/** One generation per distinct schema in a process: a sandbox or a test synthesizes many times. */
const generated = new Map<string, Record<string, unknown>>();

/**
 * The model introspection document of `schema`. Throws SchemaError for a schema the generator
 * refuses, and an Error saying how to install the generator when it is missing.
 */
export function generateIntrospection(schema: string): Record<string, unknown> {
  const key = createHash('sha256').update(schema).digest('hex');
  const cached = generated.get(key);
  if (cached !== undefined) {
    return structuredClone(cached);
  }
  const generateModelsSync = loadGenerator();
  let files: Record<string, string>;
  try {
    files = generateModelsSync({ schema, target: 'introspection' });
  } catch (error) {
    throw asSchemaError(error);
  }
  const text = Object.values(files)[0];
  if (text === undefined) {
    throw new Error(`${GENERATOR_PACKAGE} generated no model introspection file (it wrote: ${Object.keys(files).join(', ') || 'nothing'})`);
  }
  const document = JSON.parse(text) as Record<string, unknown>;
  generated.set(key, document);
  return structuredClone(document);
}

function loadGenerator(): NonNullable<GeneratorModule['generateModelsSync']> {
  let generator: GeneratorModule;
  try {
    // The user's app installs it; look from this package and from the app's directory.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    generator = require(require.resolve(GENERATOR_PACKAGE, { paths: [__dirname, process.cwd()] }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') {
      throw error;
    }
    throw new Error(`ModelIntrospection.fromSchema needs the Amplify model generator: install it in your CDK app with 'npm install --save-dev ${GENERATOR_PACKAGE}@^0.5' `
      + '(or pass a document generated elsewhere to ModelIntrospection.fromDocument)');
  }
  const sync = generator.generateModelsSync;
  if (typeof sync !== 'function') {
    throw new Error(`the installed ${GENERATOR_PACKAGE} has no generateModelsSync (it arrived in 0.5): update it with 'npm install --save-dev ${GENERATOR_PACKAGE}@^0.5'`);
  }
  return sync.bind(generator);
}

/** A GraphQL error keeps its first location; anything else keeps its message. */
function asSchemaError(error: unknown): SchemaError {
  const located = error as { message?: string; locations?: Array<{ line: number; column: number }> };
  const location = Array.isArray(located.locations) ? located.locations[0] : undefined;
  return new SchemaError(String(located.message ?? error), location?.line, location?.column);
}
