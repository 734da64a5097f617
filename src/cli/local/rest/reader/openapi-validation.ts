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
  return new DocumentValidation(doc, apiId);
}

/** The document's validators and schema models, and each operation's validation as it is asked for. */
class DocumentValidation implements OpenApiValidation {
  public readonly resources: Record<string, unknown> = {};
  private readonly validatorIds = new Map<string, string>();
  private readonly defaultValidator: unknown;
  private readonly consumes: string[];
  /** Inline request body schemas seen so far: they become models `Inline1`, `Inline2`... */
  private inline = 0;

  constructor(private readonly doc: Record<string, unknown>, private readonly apiId: string) {
    this.addValidators();
    this.addSchemaModels();
    this.defaultValidator = doc['x-amazon-apigateway-request-validator'];
    this.consumes = stringList(doc.consumes);
  }

  public methodProperties(pathItem: Record<string, unknown>, operation: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const validatorName = operation['x-amazon-apigateway-request-validator'] ?? this.defaultValidator;
    if (typeof validatorName === 'string' && this.validatorIds.has(validatorName)) {
      out.RequestValidatorId = { Ref: this.validatorIds.get(validatorName) };
    }
    const parameters = [...list(pathItem.parameters), ...list(operation.parameters)].map((p) => resolve(this.doc, p));
    const requestParameters: Record<string, boolean> = {};
    const models: Record<string, unknown> = {};
    for (const parameter of parameters) {
      this.readParameter(parameter, operation, requestParameters, models);
    }
    this.readRequestBody(operation, models);
    if (Object.keys(requestParameters).length > 0) {
      out.RequestParameters = requestParameters;
    }
    if (Object.keys(models).length > 0) {
      out.RequestModels = models;
    }
    return out;
  }

  /** `x-amazon-apigateway-request-validators`: one `AWS::ApiGateway::RequestValidator` each. */
  private addValidators(): void {
    for (const [name, validator] of Object.entries(asRecord(this.doc['x-amazon-apigateway-request-validators']))) {
      const v = asRecord(validator);
      const id = `${this.apiId}/RequestValidator/${name}`;
      this.validatorIds.set(name, id);
      this.resources[id] = {
        Type: 'AWS::ApiGateway::RequestValidator',
        Properties: {
          RestApiId: { Ref: this.apiId },
          Name: name,
          ValidateRequestBody: v.validateRequestBody === true,
          ValidateRequestParameters: v.validateRequestParameters === true,
        },
      };
    }
  }

  /** `components.schemas` (`definitions` in OpenAPI 2.0): a model each, of the same name. */
  private addSchemaModels(): void {
    const schemas = asRecord(asRecord(this.doc.components).schemas ?? this.doc.definitions);
    for (const [name, schema] of Object.entries(schemas)) {
      this.addModel(name, schema);
    }
  }

  private addModel(name: string, schema: unknown): string {
    const id = `${this.apiId}/Model/${name}`;
    const modelUrl = (model: string) => `https://apigateway.amazonaws.com/restapis/${this.apiId}/models/${model}`;
    this.resources[id] = { Type: 'AWS::ApiGateway::Model', Properties: { RestApiId: { Ref: this.apiId }, Name: name, Schema: withModelUrls(schema, modelUrl) } };
    return id;
  }

  /** A path, query or header parameter is a request parameter; an OpenAPI 2.0 body parameter a model per content type. */
  private readParameter(
    parameter: Record<string, unknown>, operation: Record<string, unknown>,
    requestParameters: Record<string, boolean>, models: Record<string, unknown>,
  ): void {
    const location = { path: 'path', query: 'querystring', header: 'header' }[String(parameter.in)];
    if (location !== undefined && typeof parameter.name === 'string') {
      ownSet(requestParameters, `method.request.${location}.${parameter.name}`, parameter.required === true);
    } else if (parameter.in === 'body' && parameter.schema !== undefined) {
      const types = stringList(operation.consumes);
      for (const type of types.length > 0 ? types : this.consumes.length > 0 ? this.consumes : ['application/json']) {
        ownSet(models, type, this.modelOf(parameter.schema));
      }
    }
  }

  /** OpenAPI 3's `requestBody`: the schema of each content type. */
  private readRequestBody(operation: Record<string, unknown>, models: Record<string, unknown>): void {
    for (const [type, media] of Object.entries(asRecord(resolve(this.doc, operation.requestBody).content))) {
      if (asRecord(media).schema !== undefined) {
        ownSet(models, type, this.modelOf(asRecord(media).schema));
      }
    }
  }

  /** The `Ref` of a body schema's model: the referenced schema's, or (inline) a model of its own, as the import creates one. */
  private modelOf(schema: unknown): unknown {
    const ref = asRecord(schema).$ref;
    const m = typeof ref === 'string' ? SCHEMA_REF.exec(ref) : null;
    return { Ref: m ? `${this.apiId}/Model/${decodePointer(m[1])}` : this.addModel(`Inline${++this.inline}`, schema) };
  }
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
