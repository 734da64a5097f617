/**
 * The `AWS::ApiGateway::Model`s of one REST API as plain JSON Schemas: `Schema` written as an object
 * or as a JSON string, with the intrinsics CDK writes into it (a `$ref` built with `Fn::Join` from
 * the API's `Ref` and another model's `Ref`) evaluated. API Gateway's own `Empty` and `Error` models
 * are always there, as in every REST API.
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { evaluate, IntrinsicEnvironment, Unresolvable } from '../../template/intrinsics';

/** A model of the API, by its `Name`. */
export interface ModelSchema {
  readonly name: string;
  /** `<stack>/<logical id>`, or `API Gateway` for the built-in models (for messages). */
  readonly where: string;
  /** The schema, or why it cannot be read. */
  readonly schema?: Record<string, unknown>;
  readonly problem?: string;
}

const DRAFT4 = 'http://json-schema.org/draft-04/schema#';

/**
 * The models every REST API has (https://docs.aws.amazon.com/apigateway/latest/developerguide/models-mappings-models.html):
 * `Empty` (an object) and `Error` (an object with a string `message`).
 */
const BUILT_IN: readonly ModelSchema[] = [
  { name: 'Empty', where: 'API Gateway', schema: { $schema: DRAFT4, title: 'Empty Schema', type: 'object' } },
  { name: 'Error', where: 'API Gateway', schema: { $schema: DRAFT4, title: 'Error Schema', type: 'object', properties: { message: { type: 'string' } } } },
];

/** The logical id a `Ref` points to, when `expression` is one. */
export function refTarget(expression: unknown): string | undefined {
  const ref = isPlainObject(expression) ? expression.Ref : undefined;
  return typeof ref === 'string' ? ref : undefined;
}

/** A model's name: its literal `Name`, else the logical id (CloudFormation would generate one). */
export function modelName(logicalId: string, resource: any): string {
  const name = resource?.Properties?.Name;
  return typeof name === 'string' && name !== '' ? name : logicalId;
}

/**
 * Reads the models of the API `apiLogicalId`: logical id → model, plus the built-in ones under
 * their names. `environment` answers the template's other references; a model's `Ref` is its name.
 */
export function readModelSchemas(
  stackName: string, resources: Record<string, any>, apiLogicalId: string, environment: IntrinsicEnvironment,
): { readonly byLogicalId: ReadonlyMap<string, ModelSchema>; readonly byName: ReadonlyMap<string, ModelSchema> } {
  const withModels: IntrinsicEnvironment = {
    pseudo: environment.pseudo,
    ref: (id) => (resources[id]?.Type === 'AWS::ApiGateway::Model' ? modelName(id, resources[id]) : environment.ref(id)),
    getAtt: (id, attribute) => environment.getAtt(id, attribute),
  };
  const byLogicalId = new Map<string, ModelSchema>();
  const byName = new Map<string, ModelSchema>(BUILT_IN.map((m) => [m.name, m]));
  for (const [logicalId, resource] of Object.entries<any>(resources)) {
    if (resource?.Type !== 'AWS::ApiGateway::Model' || refTarget(resource.Properties?.RestApiId) !== apiLogicalId) {
      continue;
    }
    const name = modelName(logicalId, resource);
    const model = { name, where: `${stackName}/${logicalId}`, ...readSchema(resource.Properties?.Schema, withModels) };
    byLogicalId.set(logicalId, model);
    byName.set(name, model);
  }
  return { byLogicalId, byName };
}

/** `Schema` as a plain JSON object (an object, or a JSON string), or why it is not one. */
function readSchema(raw: unknown, environment: IntrinsicEnvironment): { schema?: Record<string, unknown>; problem?: string } {
  if (raw === undefined) {
    // CloudFormation's Model without a schema: API Gateway stores none, so nothing constrains the body.
    return { schema: {} };
  }
  let value: unknown;
  try {
    value = typeof raw === 'string' ? JSON.parse(raw) : evaluate(raw, environment);
  } catch (error) {
    if (error instanceof Unresolvable) {
      return { problem: `its schema refers to something that is not known locally (${error.message})` };
    }
    if (error instanceof SyntaxError) {
      return { problem: `its schema is a string that is not JSON (${error.message})` };
    }
    throw error;
  }
  if (!isPlainObject(value)) {
    return { problem: 'its schema is not a JSON object' };
  }
  // A JSON round trip gives ordinary objects (the evaluator's are prototype-free).
  return { schema: JSON.parse(JSON.stringify(value)) };
}
