/**
 * The authorizer kinds the local REST API serves. The authorizer reader, the authorize step and
 * the start-up listing ask this list; adding a kind is its module (see authorizer-kind.ts) and one
 * line here.
 */
import type { AuthorizerKind } from './authorizer-kind';
import { cognitoAuthorizerKind } from './cognito-authorizer-kind';
import { iamKind } from './iam-kind';
import { lambdaAuthorizerKind } from './lambda-authorizer-kind';
import { noAuthorizationKind } from './no-authorization-kind';

export const AUTHORIZER_KINDS: readonly AuthorizerKind[] = [
  noAuthorizationKind,
  iamKind,
  cognitoAuthorizerKind,
  lambdaAuthorizerKind,
];

const byAuthorizationType = new Map(AUTHORIZER_KINDS.map((kind) => [kind.authorizationType, kind] as const));
const byAuthorizerType = new Map(AUTHORIZER_KINDS.flatMap((kind) => kind.authorizerTypes.map((type) => [type, kind] as const)));

/** The kind that checks a method's `AuthorizationType`; a type no kind checks lets requests through, as `NONE`. */
export function authorizerKind(authorizationType: string): AuthorizerKind {
  return byAuthorizationType.get(authorizationType) ?? noAuthorizationKind;
}

/** The kind that reads an `AWS::ApiGateway::Authorizer` of `type` (uppercase), if any. */
export function authorizerKindReading(type: string): AuthorizerKind | undefined {
  return byAuthorizerType.get(type);
}
