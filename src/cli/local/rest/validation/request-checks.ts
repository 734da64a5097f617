/**
 * The two checks of a request validator, as API Gateway documents them
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-method-request-validation.html):
 * the required request parameters are included and not blank (their existence only, never their
 * type or format); the body conforms to the model of its content type (`$default` when no model
 * has that content type; no model at all: not validated).
 */
import { ownGet } from '../../common/own-record';
import type { ParsedQuery } from '../../common/query-string';
import type { BodyModelSpec, RequiredParameterSpec } from '../../model/rest-api';

/** Where the request's parameters are read from. */
export interface RequestParameters {
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly query: ParsedQuery;
  header(name: string): string | undefined;
}

/**
 * The names of the required parameters the request lacks or leaves blank, in the order the service
 * lists them: sorted by the whole `method.request.<location>.<name>` key, as a sorted map of
 * `RequestParameters` holds them (so `header` before `multivalueheader`, `multivaluequerystring`,
 * `path` and `querystring`, and by name within a location, code unit by code unit). Recorded: a
 * method requiring `querystring.qs1`, `header.x-header-param` and `path.issuer`, in that order,
 * answers `[x-header-param, issuer, qs1]`; the documentation gives no order.
 */
export function missingParameters(required: readonly RequiredParameterSpec[], request: RequestParameters): string[] {
  const missing: Array<{ readonly key: string; readonly name: string }> = [];
  for (const { location, name } of required) {
    if (isBlank(valueOf(location, name, request))) {
      missing.push({ key: `method.request.${location}.${name}`, name });
    }
  }
  return missing.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ name }) => name);
}

function valueOf(location: RequiredParameterSpec['location'], name: string, request: RequestParameters): string | undefined {
  switch (location) {
    case 'path':
      return ownGet(request.pathParameters, name);
    case 'querystring':
      // The last value, as the single-value map holds it.
      return ownGet(request.query.single, name);
    case 'multivaluequerystring':
      return ownGet(request.query.multi, name)?.find((v) => !isBlank(v));
    case 'header':
    case 'multivalueheader':
      return request.header(name);
  }
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/**
 * The media type the model is chosen by: the `Content-Type` without parameters, lowercase; a
 * request without one counts as `application/json`, as API Gateway assumes for request bodies.
 */
export function requestMediaType(contentType: string | undefined): string {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return type === undefined || type === '' ? 'application/json' : type;
}

/** The model for a media type: its own, else `$default`; undefined when the body is not validated. */
export function modelFor(models: ReadonlyMap<string, BodyModelSpec>, mediaType: string): BodyModelSpec | undefined {
  return models.get(mediaType) ?? models.get('$default');
}

/** What the model says of a body: nothing (it conforms) or the failed checks, as the execution log lists them. */
export function bodyProblems(model: BodyModelSpec & { validate: NonNullable<BodyModelSpec['validate']> }, body: Buffer): ReadonlyArray<{ readonly text: string; readonly pointer: string }> {
  let parsed: unknown;
  try {
    // An empty body is not JSON either: the console's TEST logs this wording for it.
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return [{ text: 'Unknown error parsing request body', pointer: '/' }];
  }
  return model.validate(parsed);
}
