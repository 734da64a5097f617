/**
 * What a route's authorization decides: the request goes on, with what the authorizer found for
 * the event (`requestContext.authorizer` of payload 2.0), or the gateway answers instead.
 */
import type { ApiResponse } from '../../api-kind/api-kind';

export type RouteAuthorization =
  | { readonly jwt: { readonly claims: Record<string, string>; readonly scopes: readonly string[] | null } }
  | { readonly lambda: Record<string, unknown>; readonly principalId?: string };

export type AuthorizationOutcome =
  | { readonly allowed: true; readonly authorization?: RouteAuthorization }
  | { readonly allowed: false; readonly response: ApiResponse };
