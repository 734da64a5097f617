/**
 * What a route's authorization decides: the request goes on, with what the authorizer found for
 * the event (`requestContext.authorizer` of payload 2.0), or the gateway answers instead.
 */
import type { ApiResponse } from '../../api-kind/api-kind';

export type RouteAuthorization =
  | { readonly jwt: { readonly claims: Record<string, string>; readonly scopes: readonly string[] | null } }
  | { readonly lambda: Record<string, unknown>; readonly principalId?: string }
  | { readonly iam: IamCaller };

/** The caller of an `AWS_IAM` route, as payload 2.0's `requestContext.authorizer.iam` names it. */
export interface IamCaller {
  readonly accessKey: string | null;
  readonly accountId: string | null;
  readonly callerId: string;
  readonly cognitoIdentity: { readonly amr: readonly string[]; readonly identityId: null; readonly identityPoolId: null } | null;
  readonly principalOrgId: null;
  readonly userArn: string | null;
  readonly userId: string;
}

export type AuthorizationOutcome =
  | { readonly allowed: true; readonly authorization?: RouteAuthorization }
  | { readonly allowed: false; readonly response: ApiResponse };
