import { Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { IdentityPool } from 'aws-cdk-lib/aws-cognito-identitypool';
import { Construct } from 'constructs';
import {
  AuthOutputs, MfaConfiguration, MfaMethod, OAuthIdentityProvider, OAuthOutputs, OAuthResponseType,
  PasswordPolicyOutputs, StandardAttribute, UsernameAttribute, VerificationType,
} from '../../outputs/sections/auth';
import { OutputSection } from '../../outputs/sections/backend-outputs';
import { VendorOutputs } from '../../outputs/vendor-outputs';

/** Properties of an {@link AuthOutputsProducer}. */
export interface AuthOutputsProducerProps {
  /**
   * The user pool users sign in to. A `UserPool` created in this app is read in full (password
   * policy, sign-in attributes, verification, required attributes, MFA); an imported pool gives
   * only its id and region.
   */
  readonly userPool: cognito.IUserPool;

  /** The app client the frontend uses. Its OAuth settings are written when `domain` is set. */
  readonly userPoolClient: cognito.IUserPoolClient;

  /**
   * The identity pool that gives signed-in users (and guests) AWS credentials.
   * @default - no identity pool: `identity_pool_id` and `unauthenticated_identities_enabled` are not written
   */
  readonly identityPool?: IdentityPool;

  /**
   * The hosted UI domain of the user pool. When set, `auth.oauth` is written from the client's
   * OAuth settings (flows, scopes, callback and logout URLs, identity providers).
   * @default - no `auth.oauth`
   */
  readonly domain?: cognito.UserPoolDomain;
}

/**
 * Produces the `auth` section of vendor_outputs.json from a Cognito user pool, its client and an
 * optional identity pool, and owns it: afterwards `addOutput({ auth })` from elsewhere is refused.
 *
 * @example
 * new AuthOutputsProducer(this, 'Auth', { userPool, userPoolClient, identityPool });
 */
export class AuthOutputsProducer extends Construct {
  /** The section as written (values may be tokens until deploy). */
  public readonly outputs: AuthOutputs;

  constructor(scope: Construct, id: string, props: AuthOutputsProducerProps) {
    super(scope, id);
    const pool = props.userPool.node.defaultChild instanceof cognito.CfnUserPool ? props.userPool.node.defaultChild : undefined;
    const client = props.userPoolClient.node.defaultChild instanceof cognito.CfnUserPoolClient ? props.userPoolClient.node.defaultChild : undefined;
    const identity = props.identityPool?.node.defaultChild as cognito.CfnIdentityPool | undefined;
    const resolve = (value: unknown) => Stack.of(this).resolve(value);

    const mfa = pool ? mfaConfiguration(resolve(pool.mfaConfiguration)) : undefined;
    this.outputs = {
      vendorRegion: props.userPool.env.region,
      userPoolId: props.userPool.userPoolId,
      userPoolClientId: props.userPoolClient.userPoolClientId,
      identityPoolId: props.identityPool?.identityPoolId,
      passwordPolicy: pool ? passwordPolicy(resolve(pool.policies)?.passwordPolicy) : undefined,
      standardRequiredAttributes: pool ? requiredAttributes(resolve(pool.schema)) : undefined,
      usernameAttributes: pool ? usernameAttributes(resolve(pool.usernameAttributes)) : undefined,
      userVerificationTypes: pool ? (resolve(pool.autoVerifiedAttributes) ?? []) as VerificationType[] : undefined,
      unauthenticatedIdentitiesEnabled: identity ? resolve(identity.allowUnauthenticatedIdentities) === true : undefined,
      mfaConfiguration: mfa,
      mfaMethods: pool && mfa !== undefined && mfa !== MfaConfiguration.NONE ? mfaMethods(resolve(pool.enabledMfas)) : undefined,
      oauth: props.domain ? this.oauth(props.domain, client, resolve) : undefined,
    };

    VendorOutputs.of(this).claim(OutputSection.AUTH);
    VendorOutputs.of(this).addOutput({ auth: this.outputs });
  }

  private oauth(domain: cognito.UserPoolDomain, client: cognito.CfnUserPoolClient | undefined, resolve: (v: unknown) => any): OAuthOutputs {
    if (client === undefined) {
      throw new Error(`${this.node.path}: auth.oauth needs the OAuth settings of the user pool client, but the client is imported; pass a UserPoolClient created in this app or drop 'domain'`);
    }
    if (resolve(client.allowedOAuthFlowsUserPoolClient) !== true) {
      throw new Error(`${this.node.path}: a domain is given but the user pool client has OAuth disabled (disableOAuth: true); enable OAuth on the client or drop 'domain'`);
    }
    const flows: string[] = resolve(client.allowedOAuthFlows) ?? [];
    const signIn: string[] = client.callbackUrLs ?? [];
    const signOut: string[] = client.logoutUrLs ?? [];
    if (signIn.length === 0) {
      throw new Error(`${this.node.path}: auth.oauth.redirect_sign_in_uri needs at least one URL: set oAuth.callbackUrls on the user pool client`);
    }
    if (signOut.length === 0) {
      throw new Error(`${this.node.path}: auth.oauth.redirect_sign_out_uri needs at least one URL: set oAuth.logoutUrls on the user pool client`);
    }
    return {
      identityProviders: identityProviders(resolve(client.supportedIdentityProviders) ?? []),
      domain: domainName(domain),
      scopes: resolve(client.allowedOAuthScopes) ?? [],
      redirectSignInUri: signIn,
      redirectSignOutUri: signOut,
      responseType: flows.includes('code') || !flows.includes('implicit') ? OAuthResponseType.CODE : OAuthResponseType.TOKEN,
    };
  }
}

/** Cognito's password policy; Cognito's defaults when the pool sets none. */
function passwordPolicy(policy: any): PasswordPolicyOutputs {
  return {
    minLength: policy?.minimumLength ?? 8,
    requireNumbers: policy?.requireNumbers ?? true,
    requireLowercase: policy?.requireLowercase ?? true,
    requireUppercase: policy?.requireUppercase ?? true,
    requireSymbols: policy?.requireSymbols ?? true,
  };
}

const STANDARD_ATTRIBUTES = new Set<string>(Object.values(StandardAttribute));

function requiredAttributes(schema: any[] | undefined): StandardAttribute[] {
  return (schema ?? [])
    .filter((attribute) => attribute?.required === true && STANDARD_ATTRIBUTES.has(attribute.name))
    .map((attribute) => attribute.name as StandardAttribute);
}

/** Cognito `UsernameAttributes` (email / phone_number), or `username` when users sign in with a user name. */
function usernameAttributes(attributes: string[] | undefined): UsernameAttribute[] {
  return attributes !== undefined && attributes.length > 0 ? attributes as UsernameAttribute[] : [UsernameAttribute.USERNAME];
}

function mfaConfiguration(value: string | undefined): MfaConfiguration {
  switch (value) {
    case 'ON':
      return MfaConfiguration.REQUIRED;
    case 'OPTIONAL':
      return MfaConfiguration.OPTIONAL;
    default:
      return MfaConfiguration.NONE;
  }
}

/** SMS and TOTP (software token) MFA; e-mail OTP has no place in the schema. */
function mfaMethods(enabled: string[] | undefined): MfaMethod[] {
  const methods: MfaMethod[] = [];
  if (enabled?.includes('SMS_MFA')) {
    methods.push(MfaMethod.SMS);
  }
  if (enabled?.includes('SOFTWARE_TOKEN_MFA')) {
    methods.push(MfaMethod.TOTP);
  }
  return methods;
}

/** Cognito provider names → the schema's four external providers; COGNITO, OIDC and SAML providers have no place there. */
const PROVIDERS: Record<string, OAuthIdentityProvider> = {
  Google: OAuthIdentityProvider.IDP_ONE,
  Facebook: OAuthIdentityProvider.IDP_TWO,
  LoginWithAmazon: OAuthIdentityProvider.LOGIN_WITH_VENDOR,
  SignInWithApple: OAuthIdentityProvider.SIGN_IN_WITH_VENDOR,
};

function identityProviders(names: string[]): OAuthIdentityProvider[] {
  return [...new Set(names.filter((n) => n in PROVIDERS).map((n) => PROVIDERS[n]))];
}

/** The hosted UI host name: the custom domain, or `<prefix>.auth.<region>.amazoncognito.com`. */
function domainName(domain: cognito.UserPoolDomain): string {
  const cfn = domain.node.defaultChild as cognito.CfnUserPoolDomain | undefined;
  if (cfn === undefined) {
    return domain.domainName;
  }
  if (cfn.customDomainConfig !== undefined) {
    return cfn.domain;
  }
  return `${cfn.domain}.auth.${Stack.of(domain).region}.amazoncognito.com`;
}
