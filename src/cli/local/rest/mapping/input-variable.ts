/**
 * `$input`: the payload (the method request's body in a request template, the integration
 * response's in a response template) and the method request's parameters.
 */
import { javaString } from './java-text';
import { selectPath } from './json-path';
import { TemplateError } from './template-error';

/** The method request's parameters, names as received. */
export interface RequestParameters {
  readonly path: Readonly<Record<string, string>>;
  readonly querystring: Readonly<Record<string, string>>;
  readonly header: Readonly<Record<string, string>>;
}

export interface InputVariable {
  readonly body: string;
  json(path: string): string;
  path(path: string): unknown;
  params(name?: string): unknown;
}

export function inputVariable(body: string, parameters: RequestParameters): InputVariable {
  let parsed: { value: unknown } | undefined;
  const document = (): unknown => {
    if (parsed === undefined) {
      parsed = { value: parseBody(body) };
    }
    return parsed.value;
  };
  return {
    body,
    // A path that selects nothing gives an empty JSON string.
    json: (path) => {
      const value = selectPath(document(), String(path));
      return value === undefined ? '""' : JSON.stringify(value);
    },
    path: (path) => selectPath(document(), String(path)),
    params: (name?: string) => (name === undefined ? allParameters(parameters) : parameterNamed(parameters, String(name))),
  };
}

/** An empty payload is `{}`; anything else must be JSON. */
function parseBody(body: string): unknown {
  if (body.trim() === '') {
    return {};
  }
  try {
    return JSON.parse(body);
  } catch (e) {
    throw new TemplateError('body-not-json', (e as Error).message);
  }
}

/** `$input.params()`: `{path={...}, querystring={...}, header={...}}`, each a copy the template may change. */
function allParameters(parameters: RequestParameters): Record<string, Record<string, string>> {
  const map = (record: Readonly<Record<string, string>>) => Object.assign(Object.create(null), record) as Record<string, string>;
  const all = { path: map(parameters.path), querystring: map(parameters.querystring), header: map(parameters.header) };
  Object.defineProperty(all, 'toString', { value: () => javaString(all), enumerable: false });
  return all;
}

/** `$input.params(name)`: a path parameter, else a query parameter, else a header (any case); empty when none. */
function parameterNamed(parameters: RequestParameters, name: string): string {
  for (const record of [parameters.path, parameters.querystring]) {
    if (Object.prototype.hasOwnProperty.call(record, name)) {
      return record[name];
    }
  }
  const lower = name.toLowerCase();
  for (const [header, value] of Object.entries(parameters.header)) {
    if (header.toLowerCase() === lower) {
      return value;
    }
  }
  return '';
}
