/**
 * One compiled validator per model of a REST API, compiled once at start with ajv's draft 4 support
 * (API Gateway models are JSON Schema draft 4). The API's models know each other under the URL
 * API Gateway gives a model, `https://apigateway.amazonaws.com/restapis/{api}/models/{name}`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/models-mappings-models.html), so a
 * `$ref` to another model resolves whichever API id it names. A schema ajv refuses is a model with
 * a problem, never a crash.
 */
import Ajv from 'ajv-draft-04';
import type { BodyModelSpec } from '../model';
import type { ModelSchema } from './model-schemas';
import { schemaMessages } from './schema-messages';

const MODEL_URL = /^https:\/\/apigateway\.amazonaws\.com\/restapis\/[^/]+\/models\/([^/#]+)(#.*)?$/;

/** Compiles every model of one API; returns them by name. */
export function compileModels(apiLogicalId: string, models: Iterable<ModelSchema>): Map<string, BodyModelSpec> {
  // allErrors: the execution log lists every failed check, as API Gateway's does.
  // strict off: API Gateway accepts keywords draft 4 does not define (`example`, `x-...`).
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: false });
  // Model names are alphanumeric in API Gateway, so they need no encoding in the URL.
  const idOf = (name: string) => `https://apigateway.amazonaws.com/restapis/${apiLogicalId}/models/${name}`;
  const out = new Map<string, BodyModelSpec>();
  const added: ModelSchema[] = [];
  for (const model of models) {
    if (model.schema === undefined) {
      out.set(model.name, { name: model.name, problem: model.problem ?? 'it has no schema' });
      continue;
    }
    try {
      ajv.addSchema(localSchema(model.schema, idOf), idOf(model.name));
      added.push(model);
    } catch (error) {
      out.set(model.name, { name: model.name, problem: `its schema is not a valid JSON Schema draft 4 (${(error as Error).message})` });
    }
  }
  for (const model of added) {
    try {
      const validate = ajv.getSchema(idOf(model.name))!;
      out.set(model.name, {
        name: model.name,
        validate: (body) => (validate(body) ? [] : schemaMessages(validate.errors ?? [], body)),
      });
    } catch (error) {
      out.set(model.name, { name: model.name, problem: `its schema cannot be compiled (${(error as Error).message})` });
    }
  }
  return out;
}

/**
 * The schema as this API's validator reads it: `$ref`s to models point at this API's model URLs,
 * and `$schema` is dropped (API Gateway validates every model as draft 4, whatever it declares).
 */
function localSchema(schema: Record<string, unknown>, idOf: (name: string) => string): Record<string, unknown> {
  const visit = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) {
      return value.map((v) => visit(v, false));
    }
    if (value === null || typeof value !== 'object') {
      return value;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (top && key === '$schema') {
        continue;
      }
      const m = key === '$ref' && typeof child === 'string' ? MODEL_URL.exec(child) : null;
      const next = m ? `${idOf(m[1])}${m[2] ?? ''}` : visit(child, false);
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return visit(schema, true) as Record<string, unknown>;
}
