/**
 * The authorizer of an HTTP API route (`AWS::ApiGatewayV2::Authorizer`) as the local API reads it.
 */

/** `AuthorizerType: JWT`: tokens of `issuer` for one of `audiences`, read from the identity source. */
export interface HttpJwtAuthorizerSpec {
  readonly type: 'JWT';
  readonly logicalId: string;
  readonly name: string;
  /** `IdentitySource`, e.g. `$request.header.Authorization`. */
  readonly identitySource: readonly string[];
  /** `JwtConfiguration.Issuer`; undefined when it is not known before deploy. */
  readonly issuer?: string;
  /** `JwtConfiguration.Audience`, app clients of the template named by their logical ids. */
  readonly audiences: readonly string[];
  /** The user pool of the app the issuer names (its local id), when it names one. */
  readonly pool?: { readonly poolId: string; readonly region: string };
}

/** `AuthorizerType: REQUEST`: a Lambda function decides. */
export interface HttpLambdaAuthorizerSpec {
  readonly type: 'REQUEST';
  readonly logicalId: string;
  readonly name: string;
  /** The function of the template `AuthorizerUri` invokes; undefined when it names none. */
  readonly functionKey?: string;
  /** `AuthorizerPayloadFormatVersion`: the event the function gets (and, 1.0, an IAM policy answer). */
  readonly payloadFormatVersion: '1.0' | '2.0';
  /** `EnableSimpleResponses` (payload 2.0): the function answers `{ isAuthorized, context }`. */
  readonly simpleResponses: boolean;
  /** `IdentitySource`: every one must have a value; the cache key. */
  readonly identitySource: readonly string[];
  /** `AuthorizerResultTtlInSeconds` (0: no caching). */
  readonly ttlSeconds: number;
}

export type HttpAuthorizerSpec = HttpJwtAuthorizerSpec | HttpLambdaAuthorizerSpec;
