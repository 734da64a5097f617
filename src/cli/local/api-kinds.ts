/**
 * The API kinds the local API serves, by registration: adding a kind is its folder and one line
 * here. The template reader reads each kind's APIs; the server serves each API by its kind.
 */
import type { ApiKind } from './api-kind/api-kind';
import { FUNCTION_URL_KIND } from './function-url/function-url-kind';
import { HTTP_API_KIND } from './http/http-api-kind';
import type { ApiSpec } from './model/rest-api';
import { REST_API_KIND } from './rest/rest-api-kind';
import { WEBSOCKET_API_KIND } from './websocket/websocket-api-kind';

export const API_KINDS: readonly ApiKind[] = [
  REST_API_KIND,
  HTTP_API_KIND,
  FUNCTION_URL_KIND,
  WEBSOCKET_API_KIND,
];

/** The kind that serves `api` (an API that names none is a REST API). */
export function apiKindOf(api: ApiSpec): ApiKind {
  const name = api.kind ?? 'REST';
  const kind = API_KINDS.find((k) => k.kind === name);
  if (kind === undefined) {
    throw new Error(`no API kind '${name}' is registered (api-kinds.ts)`);
  }
  return kind;
}
