/**
 * MOCK integrations, as CORS preflight (`OPTIONS`) methods use them: the request template picks a
 * status code, which selects an integration response, whose response parameters and templates give
 * the headers and body.
 *
 * Velocity templates are not run in general. Two forms are understood: a template with no Velocity
 * directives (the body, as it is), and the origin check that aws-cdk-lib writes for CORS with
 * several allowed origins (`#if($origin == "https://a" || $origin == "https://b")` then
 * `#set($context.responseOverride.header.Access-Control-Allow-Origin = $origin)`).
 */
import { MockIntegrationResponse } from './model';

/** What the MOCK integration answered. */
export interface MockResult {
  readonly statusCode: number;
  readonly headers: Array<[string, string]>;
  readonly body: string;
}

/** Request values a response parameter can map from. */
export interface MockRequest {
  readonly query: Readonly<Record<string, string>>;
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly contentType: string | undefined;
  /** Header lookup, case-insensitive. */
  header(name: string): string | undefined;
}

/**
 * Runs a MOCK integration; undefined when no integration response matches and none is the default
 * (API Gateway then answers 500 with a configuration error).
 */
export function runMock(
  requestTemplates: Readonly<Record<string, string>>, responses: readonly MockIntegrationResponse[], request: MockRequest,
): MockResult | undefined {
  const template = pickTemplate(requestTemplates, request.contentType);
  const status = template === undefined ? '200' : /statusCode"?\s*:\s*"?(\d{3})/.exec(template)?.[1] ?? '200';
  const selected = responses.find((r) => r.selectionPattern !== undefined && r.selectionPattern !== '' && fullMatch(r.selectionPattern, status))
    ?? responses.find((r) => r.selectionPattern === undefined || r.selectionPattern === '');
  if (selected === undefined) {
    return undefined;
  }
  const headers: Array<[string, string]> = [];
  const set = (name: string, value: string) => {
    const i = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    if (i >= 0) {
      headers[i] = [headers[i][0], value];
    } else {
      headers.push([name, value]);
    }
  };
  for (const [key, expression] of Object.entries(selected.responseParameters)) {
    const m = /^method\.response\.header\.(.+)$/.exec(key);
    if (!m) {
      continue;
    }
    const value = mapValue(expression, request);
    if (value !== undefined) {
      set(m[1], value);
    }
  }
  let body = '';
  const responseTemplate = pickTemplate(selected.responseTemplates, 'application/json');
  if (responseTemplate !== undefined) {
    if (/^\s*#set\(\$origin/.test(responseTemplate)) {
      const override = originOverride(responseTemplate, request.header('origin'));
      if (override !== undefined) {
        set(override.header, override.value);
      }
    } else if (!/[#$]/.test(responseTemplate)) {
      body = responseTemplate;
    }
  }
  return { statusCode: selected.statusCode, headers, body };
}

function pickTemplate(templates: Readonly<Record<string, string>>, contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return (type === undefined ? undefined : own(templates, type)) ?? own(templates, 'application/json') ?? Object.values(templates)[0];
}

function fullMatch(pattern: string, text: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 's').test(text);
  } catch {
    return false;
  }
}

/** A response parameter's value: `'static'`, or `method.request.header|querystring|path.NAME`. */
function mapValue(expression: string, request: MockRequest): string | undefined {
  const literal = /^'(.*)'$/s.exec(expression);
  if (literal) {
    return literal[1];
  }
  const m = /^method\.request\.(header|querystring|path)\.(.+)$/.exec(expression);
  if (m) {
    return m[1] === 'header' ? request.header(m[2]) : own(m[1] === 'querystring' ? request.query : request.pathParameters, m[2]);
  }
  return undefined;
}

/** An own property only: names may come from the client (`constructor`, `__proto__`). */
function own(record: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

/** The CORS origin check aws-cdk-lib generates: which header to set to the request's origin, if any. */
export function originOverride(template: string, origin: string | undefined): { header: string; value: string } | undefined {
  const header = /\$context\.responseOverride\.header\.([A-Za-z0-9-]+)\s*=\s*\$origin/.exec(template)?.[1];
  if (header === undefined || origin === undefined || origin === '') {
    return undefined;
  }
  const allowed: string[] = [];
  for (const line of template.split('\n')) {
    if (/^\s*#if\(\$origin\s*==\s*"/.test(line)) {
      for (const m of line.matchAll(/\$origin\s*==\s*"([^"]*)"/g)) {
        allowed.push(m[1]);
      }
    }
  }
  return allowed.includes(origin) ? { header, value: origin } : undefined;
}
