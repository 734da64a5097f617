import * as fs from 'fs';
import { generateIntrospection, GENERATOR_PACKAGE, SchemaError } from './introspection-generator';
import { introspectionProblems } from './model-introspection-shape';

/**
 * The model introspection document of a data API (`data.model_introspection`): what the
 * frontend's data client reads to build its typed model operations.
 *
 * Generated from a GraphQL schema written with the model directives of Amplify's GraphQL
 * transformer (`@model`, `@hasMany`, `@belongsTo`, `@index`, `@auth`, ...) by the toolchain's own
 * generator, `@aws-amplify/graphql-generator`, which the app installs (it is optional: only
 * `fromSchema` and `fromSchemaFile` load it).
 *
 * @example
 * new DataOutputsProducer(this, 'Data', {
 *   api,
 *   modelIntrospection: ModelIntrospection.fromSchemaFile('schema.graphql'),
 * });
 */
export class ModelIntrospection {
  /**
   * Generates the document from a GraphQL schema.
   *
   * Throws, naming the line and column, when the generator refuses the schema; when the
   * generator is not installed, the error says how to install it.
   *
   * @param schema the schema text (SDL)
   */
  public static fromSchema(schema: string): ModelIntrospection {
    return ModelIntrospection.generate(schema, 'the schema');
  }

  /**
   * Generates the document from a GraphQL schema file (for example `schema.graphql`, or the
   * file an `AmplifyGraphqlDefinition.fromFiles` reads). A relative path is relative to the
   * working directory of the synth.
   *
   * @param schemaFile path of the schema file
   */
  public static fromSchemaFile(schemaFile: string): ModelIntrospection {
    let schema: string;
    try {
      schema = fs.readFileSync(schemaFile, 'utf8');
    } catch (error) {
      throw new Error(`ModelIntrospection.fromSchemaFile: cannot read ${schemaFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    return ModelIntrospection.generate(schema, schemaFile);
  }

  /**
   * A document generated elsewhere (for example by `npx ampx generate graphql-client-code
   * --format modelgen --model-target introspection`), checked like a generated one.
   *
   * @param document the model introspection document
   */
  public static fromDocument(document: { [key: string]: any }): ModelIntrospection {
    return new ModelIntrospection(document, 'ModelIntrospection.fromDocument');
  }

  private static generate(schema: string, source: string): ModelIntrospection {
    let document: Record<string, unknown>;
    try {
      document = generateIntrospection(schema);
    } catch (error) {
      if (error instanceof SchemaError) {
        const where = error.line !== undefined ? `${source}:${error.line}:${error.column}` : source;
        throw new Error(`ModelIntrospection: ${where}: ${GENERATOR_PACKAGE} refused the schema: ${error.message}`);
      }
      throw error;
    }
    return new ModelIntrospection(document, `the introspection generated from ${source}`);
  }

  /** The document, as written to `data.model_introspection`. */
  public readonly document: { [key: string]: any };

  private constructor(document: { [key: string]: any }, source: string) {
    const problems = introspectionProblems(document);
    if (problems.length > 0) {
      throw new Error(`ModelIntrospection: ${source} is not a model introspection document the data client can read:\n  ${problems.join('\n  ')}`);
    }
    this.document = document;
  }
}
