/**
 * One compiled validator per model of a REST API, compiled once at start with ajv's draft 4 support
 * (API Gateway models are JSON Schema draft 4). The API's models know each other under the URL
 * API Gateway gives a model, `https://apigateway.amazonaws.com/restapis/{api}/models/{name}`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/models-mappings-models.html), so a
 * `$ref` to another model resolves whichever API id it names. A schema ajv refuses is a model with
 * a problem, never a crash.
 */
import type { ModelSchema } from './model-schemas';
import { schemaMessages } from './schema-messages';
import { rewriteRefs } from './schema-refs';
import { ecmaPattern } from '../../common/linear-regex';
import type { BodyModelSpec } from '../../model/rest-api';

const MODEL_URL = /^https:\/\/apigateway\.amazonaws\.com\/restapis\/[^/]+\/models\/([^/#]+)(#.*)?$/;

/** ajv's regular expression engine: the name is ajv's key for the function in generated code. */
const PATTERN_ENGINE = Object.assign((pattern: string) => ecmaPattern(pattern), { code: 'ecmaPattern' });

/** The model of a name, compiled on first request and kept; undefined for a name the API has no model of. */
export type ModelLookup = (name: string) => BodyModelSpec | undefined;

/**
 * Registers every model of one API (a schema that is not valid draft 4 is a problem here); each is
 * compiled when first looked up, with the models it refers to.
 */
export function compileModels(apiLogicalId: string, models: Iterable<ModelSchema>): ModelLookup {
  // Loaded on first use: an app without request validators pays nothing for ajv at start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: Ajv }: typeof import('ajv-draft-04') = require('ajv-draft-04');
  // allErrors: the execution log lists every failed check, as API Gateway's does.
  // strict off: API Gateway accepts keywords draft 4 does not define (`example`, `x-...`).
  // regExp: `pattern` runs on RE2, linear in the request body's text (../../common/linear-regex.ts).
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: false, code: { regExp: PATTERN_ENGINE } });
  // Model names are alphanumeric in API Gateway, so they need no encoding in the URL.
  const idOf = (name: string) => `https://apigateway.amazonaws.com/restapis/${apiLogicalId}/models/${name}`;
  const out = new Map<string, BodyModelSpec>();
  const registered = new Set<string>();
  for (const model of models) {
    if (model.schema === undefined) {
      out.set(model.name, { name: model.name, problem: model.problem ?? 'it has no schema' });
      continue;
    }
    try {
      ajv.addSchema(localSchema(model.schema, idOf), idOf(model.name));
      registered.add(model.name);
    } catch (error) {
      out.set(model.name, { name: model.name, problem: `its schema is not a valid JSON Schema draft 4 (${(error as Error).message})` });
    }
  }
  return (name) => {
    let model = out.get(name);
    if (model === undefined && registered.has(name)) {
      model = compile(ajv, idOf(name), name);
      out.set(name, model);
    }
    return model;
  };
}

function compile(ajv: import('ajv-draft-04').default, id: string, name: string): BodyModelSpec {
  try {
    const validate = ajv.getSchema(id)!;
    return { name, validate: (body) => (validate(body) ? [] : schemaMessages(validate.errors ?? [], body)) };
  } catch (error) {
    return { name, problem: `its schema cannot be compiled (${(error as Error).message})` };
  }
}

/**
 * The schema as this API's validator reads it: `$ref`s to models point at this API's model URLs,
 * and `$schema` is dropped (API Gateway validates every model as draft 4, whatever it declares).
 */
function localSchema(schema: Record<string, unknown>, idOf: (name: string) => string): Record<string, unknown> {
  const toLocal = (ref: string): string | undefined => {
    const m = MODEL_URL.exec(ref);
    return m ? `${idOf(m[1])}${m[2] ?? ''}` : undefined;
  };
  return rewriteRefs(schema, toLocal, true) as Record<string, unknown>;
}
