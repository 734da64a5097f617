/**
 * Reads the request validation of one REST API's methods from the template: the
 * `AWS::ApiGateway::RequestValidator`s (`ValidateRequestBody`, `ValidateRequestParameters`), the
 * `AWS::ApiGateway::Model`s (compiled once, here, at start), and each method's `RequestValidatorId`,
 * `RequestModels` and required `RequestParameters`. A model that cannot be used is a start-up
 * warning naming it and the methods that validate bodies with it.
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import type { BodyModelSpec, RequestValidationSpec, RequiredParameterSpec } from '../../model/rest-api';
import type { IntrinsicEnvironment } from '../../template/intrinsics';
import { compileModels, ModelLookup } from '../validation/model-compiler';
import { readModelSchemas, refTarget } from '../validation/model-schemas';

/** What the reader needs of the stack. */
export interface ValidationReadContext {
  readonly stackName: string;
  readonly resources: Record<string, any>;
  readonly apiLogicalId: string;
  readonly environment: IntrinsicEnvironment;
  readonly warnings: string[];
}

/** The request validation of a method from its `Properties`, or undefined when it has none. */
export type MethodValidationReader = (methodLogicalId: string, methodProperties: Record<string, any>) => RequestValidationSpec | undefined;

const PARAMETER = /^method\.request\.(path|querystring|header|multivaluequerystring|multivalueheader)\.(.+)$/;

/** Reads the API's validators and models; the returned reader builds each method's validation. */
export function readRequestValidation(context: ValidationReadContext): MethodValidationReader {
  const { stackName, resources, apiLogicalId, environment, warnings } = context;
  const validators = new Map<string, { name: string; body: boolean; parameters: boolean }>();
  for (const [id, resource] of Object.entries<any>(resources)) {
    const p = resource?.Properties ?? {};
    if (resource?.Type === 'AWS::ApiGateway::RequestValidator' && refTarget(p.RestApiId) === apiLogicalId) {
      validators.set(id, { name: typeof p.Name === 'string' ? p.Name : id, body: isTrue(p.ValidateRequestBody), parameters: isTrue(p.ValidateRequestParameters) });
    }
  }
  let compiled: ModelLookup | undefined;
  let schemas: ReturnType<typeof readModelSchemas> | undefined;
  const warned = new Set<string>();

  return (methodId, p) => {
    const validatorId = refTarget(p.RequestValidatorId);
    const validator = validatorId === undefined ? undefined : validators.get(validatorId);
    if (p.RequestValidatorId !== undefined && validator === undefined) {
      warnings.push(`${stackName}/${methodId}: its RequestValidatorId is not a request validator of this API in the template; requests are not validated`);
    }
    if (validator === undefined || (!validator.body && !validator.parameters)) {
      return undefined;
    }
    const bodyModels = new Map<string, BodyModelSpec>();
    if (validator.body) {
      // Models are read when the first method validates a body, and each compiled once, for the first method that uses it.
      schemas ??= readModelSchemas(stackName, resources, apiLogicalId, environment);
      compiled ??= compileModels(apiLogicalId, schemas.byName.values());
      for (const [contentType, reference] of Object.entries<unknown>(p.RequestModels ?? {})) {
        const model = modelFor(reference, schemas, compiled);
        bodyModels.set(contentType.toLowerCase(), model);
        if (model.problem !== undefined) {
          const key = `${model.name}\n${methodId}`;
          if (!warned.has(key)) {
            warned.add(key);
            warnings.push(`${stackName}/${methodId}: model ${model.name} (${contentType}) cannot validate request bodies: ${model.problem}; the method answers 500 for bodies of that type (API Gateway refuses such a model at deploy)`);
          }
        }
      }
    }
    return {
      validatorName: validator.name,
      validateBody: validator.body,
      validateParameters: validator.parameters,
      requiredParameters: validator.parameters ? requiredParameters(p.RequestParameters) : [],
      bodyModels,
    };
  };
}

/** The model a `RequestModels` value names: a `Ref` to a model resource, or a model's name. */
function modelFor(reference: unknown, schemas: ReturnType<typeof readModelSchemas>, compiled: ModelLookup): BodyModelSpec {
  const logicalId = refTarget(reference);
  const name = logicalId !== undefined ? schemas.byLogicalId.get(logicalId)?.name : typeof reference === 'string' ? reference : undefined;
  const model = name === undefined ? undefined : compiled(name);
  if (model !== undefined) {
    return model;
  }
  const shown = name ?? logicalId ?? JSON.stringify(reference);
  return { name: shown, problem: `no model ${shown} of this API is in the template` };
}

/** `RequestParameters` entries set to true, in the template's order. */
function requiredParameters(parameters: unknown): RequiredParameterSpec[] {
  const out: RequiredParameterSpec[] = [];
  const entries = isPlainObject(parameters) ? Object.entries(parameters) : [];
  for (const [key, required] of entries) {
    const m = PARAMETER.exec(key);
    if (m && isTrue(required)) {
      out.push({ location: m[1] as RequiredParameterSpec['location'], name: m[2] });
    }
  }
  return out;
}

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
