/**
 * The choices a WebSocket API's non-proxy integration makes by key ("Data transformations for
 * WebSocket APIs"): the template a `TemplateSelectionExpression` names (`${request.body.jsonPath}`,
 * for integration responses also `${integration.response.statuscode}`, or a static value; absent, or
 * naming no template: the `$default` template), and the integration response whose
 * `IntegrationResponseKey` matches the status code (a regular expression in slashes, `/2\d\d/`,
 * matching the whole code; else the `$default` response).
 */
import { selectionValue } from './route-selection';
import { javaFullMatch } from '../common/linear-regex';
import type { WebSocketIntegrationResponseSpec } from '../model/websocket-api';

const DEFAULT_KEY = '$default';

const STATUS_CODE = /^\$\{?integration\.response\.statuscode\}?$/i;

/** What a selection expression may read: the client's message and, after the integration, its status code. */
export interface SelectionSource {
  readonly body: string;
  readonly statusCode?: number;
}

/** The template the expression names, else the `$default` template; undefined when there is neither. */
export function selectTemplate(
  templates: Readonly<Record<string, string>>, expression: string | undefined, source: SelectionSource,
): string | undefined {
  const key = expression === undefined ? undefined : expressionValue(expression.trim(), source);
  const own = (name: string) => (Object.prototype.hasOwnProperty.call(templates, name) ? templates[name] : undefined);
  return (key === undefined ? undefined : own(key)) ?? own(DEFAULT_KEY);
}

/** The integration response for `statusCode`: the first whose pattern key matches it, else the `$default` one. */
export function selectIntegrationResponse(
  responses: readonly WebSocketIntegrationResponseSpec[], statusCode: number,
): WebSocketIntegrationResponseSpec | undefined {
  const code = String(statusCode);
  return responses.find((r) => patternOf(r.key) !== undefined && javaFullMatch(patternOf(r.key)!, code))
    ?? responses.find((r) => r.key === DEFAULT_KEY);
}

/** `/2\d\d/` → `2\d\d`; undefined for `$default` and any key not in slashes. */
function patternOf(key: string): string | undefined {
  return key.length >= 2 && key.startsWith('/') && key.endsWith('/') ? key.slice(1, -1) : undefined;
}

/** The key an expression gives: a body property, the status code, `\$default`, or the static text itself. */
function expressionValue(expression: string, source: SelectionSource): string | undefined {
  if (expression === '\\$default') {
    return DEFAULT_KEY;
  }
  if (STATUS_CODE.test(expression)) {
    return source.statusCode === undefined ? undefined : String(source.statusCode);
  }
  if (expression.includes('$')) {
    return selectionValue(expression, source.body);
  }
  return expression;
}
