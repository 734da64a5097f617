/**
 * Request validation declared in an OpenAPI document, in the template's shapes (so that
 * validation/validator-reader.ts reads it as it reads the template's own):
 *
 * - `x-amazon-apigateway-request-validators` entries are `AWS::ApiGateway::RequestValidator`s; an
 *   operation's `x-amazon-apigateway-request-validator`, else the document's, is its `RequestValidatorId`.
 * - the schemas (`components.schemas`, or `definitions` in OpenAPI 2.0) are `AWS::ApiGateway::Model`s
 *   of the same names, their `#/...` references turned into model URLs, as the import does; a
 *   request body's schema (a reference, or inline: a model of its own) is the `RequestModels` entry
 *   of its content type.
 * - parameters in the path, query string and headers are `RequestParameters`, `true` when required.
 *
 * The pseudo-resources' ids contain `/`, so they cannot meet a logical id of the template.
 */
import { asRecord, ownGet, ownSet, stringList } from '../../common/own-record';
import { rewriteRefs } from '../validation/schema-refs';

export interface OpenApiValidation {
  /** Validators and models as template resources, by pseudo logical id. */
  readonly resources: Record<string, unknown>;
  /** `RequestValidatorId`, `RequestModels` and `RequestParameters` of one operation (those it has). */
  methodProperties(pathItem: Record<string, unknown>, operation: Record<string, unknown>): Record<string, unknown>;
}

const SCHEMA_REF = /^#\/(?:components\/schemas|definitions)\/(.+)$/;

export function readOpenApiValidation(doc: Record<string, unknown>, apiId: string): OpenApiValidation {
  const resources: Record<string, unknown> = {};
  const validatorIds = new Map<string, string>();
  for (const [name, validator] of Object.entries(asRecord(doc['x-amazon-apigateway-request-validators']))) {
    const v = asRecord(validator);
    const id = `${apiId}/RequestValidator/${name}`;
    validatorIds.set(name, id);
    resources[id] = {
      Type: 'AWS::ApiGateway::RequestValidator',
      Properties: {
        RestApiId: { Ref: apiId },
        Name: name,
        ValidateRequestBody: v.validateRequestBody === true,
        ValidateRequestParameters: v.validateRequestParameters === true,
      },
    };
  }
  const modelUrl = (name: string) => `https://apigateway.amazonaws.com/restapis/${apiId}/models/${name}`;
  const addModel = (name: string, schema: unknown): string => {
    const id = `${apiId}/Model/${name}`;
    resources[id] = { Type: 'AWS::ApiGateway::Model', Properties: { RestApiId: { Ref: apiId }, Name: name, Schema: withModelUrls(schema, modelUrl) } };
    return id;
  };
  const schemas = asRecord(asRecord(doc.components).schemas ?? doc.definitions);
  for (const [name, schema] of Object.entries(schemas)) {
    addModel(name, schema);
  }
  const defaultValidator = doc['x-amazon-apigateway-request-validator'];
  const consumes = stringList(doc.consumes);
  let inline = 0;

  return {
    resources,
    methodProperties(pathItem, operation) {
      const out: Record<string, unknown> = {};
      const validatorName = operation['x-amazon-apigateway-request-validator'] ?? defaultValidator;
      if (typeof validatorName === 'string' && validatorIds.has(validatorName)) {
        out.RequestValidatorId = { Ref: validatorIds.get(validatorName) };
      }
      const parameters = [...list(pathItem.parameters), ...list(operation.parameters)].map((p) => resolve(doc, p));
      const requestParameters: Record<string, boolean> = {};
      const models: Record<string, unknown> = {};
      const modelOf = (schema: unknown): unknown => {
        const ref = asRecord(schema).$ref;
        const m = typeof ref === 'string' ? SCHEMA_REF.exec(ref) : null;
        // An inline schema becomes a model of its own, as the import creates one.
        return { Ref: m ? `${apiId}/Model/${decodePointer(m[1])}` : addModel(`Inline${++inline}`, schema) };
      };
      for (const parameter of parameters) {
        const location = { path: 'path', query: 'querystring', header: 'header' }[String(parameter.in)];
        if (location !== undefined && typeof parameter.name === 'string') {
          ownSet(requestParameters, `method.request.${location}.${parameter.name}`, parameter.required === true);
        } else if (parameter.in === 'body' && parameter.schema !== undefined) {
          const types = stringList(operation.consumes);
          for (const type of types.length > 0 ? types : consumes.length > 0 ? consumes : ['application/json']) {
            ownSet(models, type, modelOf(parameter.schema));
          }
        }
      }
      for (const [type, media] of Object.entries(asRecord(resolve(doc, operation.requestBody).content))) {
        if (asRecord(media).schema !== undefined) {
          ownSet(models, type, modelOf(asRecord(media).schema));
        }
      }
      if (Object.keys(requestParameters).length > 0) {
        out.RequestParameters = requestParameters;
      }
      if (Object.keys(models).length > 0) {
        out.RequestModels = models;
      }
      return out;
    },
  };
}

/** The schema with its `#/components/schemas/X` (or `#/definitions/X`) references as model URLs. */
function withModelUrls(schema: unknown, modelUrl: (name: string) => string): unknown {
  return rewriteRefs(schema, (ref) => {
    const m = SCHEMA_REF.exec(ref);
    return m ? modelUrl(decodePointer(m[1])) : undefined;
  });
}

/** A `$ref` to `#/components/...` or `#/...` of the document followed once (parameters, request bodies). */
function resolve(doc: Record<string, unknown>, value: unknown): Record<string, unknown> {
  const ref = asRecord(value).$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) {
    return asRecord(value);
  }
  let at: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    at = ownGet(asRecord(at), decodePointer(part));
  }
  return asRecord(at);
}

function decodePointer(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
