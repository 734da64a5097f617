/** Attributes a user may sign in with (`auth.username_attributes`). */
export enum UsernameAttribute {
  EMAIL = 'email',
  PHONE_NUMBER = 'phone_number',
  USERNAME = 'username',
}

/** How users verify their account (`auth.user_verification_types`). */
export enum VerificationType {
  EMAIL = 'email',
  PHONE_NUMBER = 'phone_number',
}

/** Standard user attributes that sign-up may require (`auth.standard_required_attributes`). */
export enum StandardAttribute {
  ADDRESS = 'address',
  BIRTHDATE = 'birthdate',
  EMAIL = 'email',
  FAMILY_NAME = 'family_name',
  GENDER = 'gender',
  GIVEN_NAME = 'given_name',
  LOCALE = 'locale',
  MIDDLE_NAME = 'middle_name',
  NAME = 'name',
  NICKNAME = 'nickname',
  PHONE_NUMBER = 'phone_number',
  PICTURE = 'picture',
  PREFERRED_USERNAME = 'preferred_username',
  PROFILE = 'profile',
  SUB = 'sub',
  UPDATED_AT = 'updated_at',
  WEBSITE = 'website',
  ZONEINFO = 'zoneinfo',
}

/** Multi-factor authentication setting (`auth.mfa_configuration`). */
export enum MfaConfiguration {
  NONE = 'NONE',
  OPTIONAL = 'OPTIONAL',
  REQUIRED = 'REQUIRED',
}

/** Multi-factor authentication methods (`auth.mfa_methods`). */
export enum MfaMethod {
  SMS = 'SMS',
  TOTP = 'TOTP',
}

/** External identity providers (`auth.oauth.identity_providers`). */
export enum OAuthIdentityProvider {
  IDP_ONE = 'IDP_ONE',
  IDP_TWO = 'IDP_TWO',
  LOGIN_WITH_VENDOR = 'LOGIN_WITH_VENDOR',
  SIGN_IN_WITH_VENDOR = 'SIGN_IN_WITH_VENDOR',
}

/** OAuth response type (`auth.oauth.response_type`). */
export enum OAuthResponseType {
  CODE = 'code',
  TOKEN = 'token',
}

/** The user pool's password policy (`auth.password_policy`). */
export interface PasswordPolicyOutputs {
  /**
   * Minimum password length, 6 to 99 inclusive.
   * @default - not written
   */
  readonly minLength?: number;
  /** @default - not written */
  readonly requireNumbers?: boolean;
  /** @default - not written */
  readonly requireLowercase?: boolean;
  /** @default - not written */
  readonly requireUppercase?: boolean;
  /** @default - not written */
  readonly requireSymbols?: boolean;
}

/** OAuth settings of the user pool client (`auth.oauth`). */
export interface OAuthOutputs {
  /** External identity providers; may be empty, items unique. */
  readonly identityProviders: OAuthIdentityProvider[];
  /** Domain used for the identity providers. */
  readonly domain: string;
  /** OAuth scopes; may be empty, items unique. */
  readonly scopes: string[];
  /** Redirect targets after sign-in; at least one, items unique. */
  readonly redirectSignInUri: string[];
  /** Redirect targets after sign-out; at least one, items unique. */
  readonly redirectSignOutUri: string[];
  /** OAuth response type. */
  readonly responseType: OAuthResponseType;
}

/** The `auth` section: user sign-in, generated from the auth definition. */
export interface AuthOutputs {
  /** Region of the user-pool resources. */
  readonly vendorRegion: string;
  /** User pool id. */
  readonly userPoolId: string;
  /** User pool client id. */
  readonly userPoolClientId: string;
  /** @default - no identity pool */
  readonly identityPoolId?: string;
  /** @default - not written */
  readonly passwordPolicy?: PasswordPolicyOutputs;
  /** @default - no OAuth */
  readonly oauth?: OAuthOutputs;
  /** @default - not written */
  readonly standardRequiredAttributes?: StandardAttribute[];
  /** At least one, items unique. @default - not written */
  readonly usernameAttributes?: UsernameAttribute[];
  /** @default - not written */
  readonly userVerificationTypes?: VerificationType[];
  /** @default - not written; clients read a missing value as true */
  readonly unauthenticatedIdentitiesEnabled?: boolean;
  /** @default - not written */
  readonly mfaConfiguration?: MfaConfiguration;
  /** @default - not written */
  readonly mfaMethods?: MfaMethod[];
}
