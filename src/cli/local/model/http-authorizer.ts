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

export type HttpAuthorizerSpec = HttpJwtAuthorizerSpec;
