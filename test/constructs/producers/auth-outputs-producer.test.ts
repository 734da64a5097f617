import { Duration } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { IdentityPool, UserPoolAuthenticationProvider } from 'aws-cdk-lib/aws-cognito-identitypool';
import { AuthOutputsProducer, MfaConfiguration, VendorOutputs } from '../../../src';
import { newStack, synthOutputs } from '../support';

const PENDING = expect.stringMatching(/^<pending: /);

describe('AuthOutputsProducer', () => {
  test('maps a full user pool, client, domain and identity pool faithfully', () => {
    const { app, stack } = newStack();
    const userPool = new cognito.UserPool(stack, 'UserPool', {
      signInAliases: { email: true, phone: true },
      autoVerify: { email: true, phone: true },
      standardAttributes: { email: { required: true }, givenName: { required: true }, nickname: { required: false } },
      passwordPolicy: {
        minLength: 12,
        requireSymbols: false,
        requireDigits: true,
        requireLowercase: true,
        requireUppercase: false,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { sms: true, otp: true },
    });
    const userPoolClient = userPool.addClient('Client', {
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.EMAIL, cognito.OAuthScope.OPENID],
        callbackUrls: ['http://localhost:3000/', 'https://app.example.com/'],
        logoutUrls: ['http://localhost:3000/signed-out'],
      },
      supportedIdentityProviders: [
        cognito.UserPoolClientIdentityProvider.COGNITO, cognito.UserPoolClientIdentityProvider.GOOGLE, cognito.UserPoolClientIdentityProvider.APPLE,
      ],
    });
    const domain = userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: 'my-app-auth' } });
    const identityPool = new IdentityPool(stack, 'Identity', {
      allowUnauthenticatedIdentities: true,
      authenticationProviders: { userPools: [new UserPoolAuthenticationProvider({ userPool, userPoolClient })] },
    });
    new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient, identityPool, domain });

    expect(synthOutputs(app, stack).auth).toEqual({
      vendor_region: 'eu-west-1',
      user_pool_id: PENDING,
      user_pool_client_id: PENDING,
      identity_pool_id: PENDING,
      password_policy: { min_length: 12, require_numbers: true, require_lowercase: true, require_uppercase: false, require_symbols: false },
      oauth: {
        identity_providers: ['IDP_ONE', 'SIGN_IN_WITH_VENDOR'],
        domain: 'my-app-auth.auth.eu-west-1.amazoncognito.com',
        scopes: ['email', 'openid'],
        redirect_sign_in_uri: ['http://localhost:3000/', 'https://app.example.com/'],
        redirect_sign_out_uri: ['http://localhost:3000/signed-out'],
        response_type: 'code',
      },
      standard_required_attributes: ['email', 'given_name'],
      username_attributes: ['email', 'phone_number'],
      user_verification_types: ['email', 'phone_number'],
      unauthenticated_identities_enabled: true,
      mfa_configuration: 'OPTIONAL',
      mfa_methods: ['SMS', 'TOTP'],
    });
  });

  test('a minimal pool: Cognito password defaults, username sign-in, MFA off, no identity pool', () => {
    const { app, stack } = newStack();
    const userPool = new cognito.UserPool(stack, 'UserPool');
    const userPoolClient = userPool.addClient('Client');
    const producer = new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient });
    expect(producer.outputs.mfaConfiguration).toBe(MfaConfiguration.NONE);
    expect(synthOutputs(app, stack).auth).toEqual({
      vendor_region: 'eu-west-1',
      user_pool_id: PENDING,
      user_pool_client_id: PENDING,
      password_policy: { min_length: 8, require_numbers: true, require_lowercase: true, require_uppercase: true, require_symbols: true },
      standard_required_attributes: [],
      username_attributes: ['username'],
      user_verification_types: [],
      mfa_configuration: 'NONE',
    });
  });

  test('required MFA with TOTP only; implicit grant is response type token; guests off', () => {
    const { app, stack } = newStack();
    const userPool = new cognito.UserPool(stack, 'UserPool', { mfa: cognito.Mfa.REQUIRED, mfaSecondFactor: { sms: false, otp: true } });
    const userPoolClient = userPool.addClient('Client', {
      oAuth: { flows: { implicitCodeGrant: true }, callbackUrls: ['https://a.example.com/'], logoutUrls: ['https://a.example.com/out'], scopes: [cognito.OAuthScope.OPENID] },
    });
    const domain = userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: 'x-auth' } });
    const identityPool = new IdentityPool(stack, 'Identity');
    new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient, identityPool, domain });
    const auth = synthOutputs(app, stack).auth;
    expect(auth.mfa_configuration).toBe('REQUIRED');
    expect(auth.mfa_methods).toEqual(['TOTP']);
    expect(auth.oauth.response_type).toBe('token');
    expect(auth.oauth.identity_providers).toEqual([]);
    expect(auth.unauthenticated_identities_enabled).toBe(false);
  });

  test('an imported pool and client give the ids and region only', () => {
    const { app, stack } = newStack();
    const userPool = cognito.UserPool.fromUserPoolId(stack, 'Pool', 'eu-west-1_abc123');
    const userPoolClient = cognito.UserPoolClient.fromUserPoolClientId(stack, 'Client', 'client123');
    new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient });
    expect(synthOutputs(app, stack).auth).toEqual({ vendor_region: 'eu-west-1', user_pool_id: 'eu-west-1_abc123', user_pool_client_id: 'client123' });
  });

  test('owns auth: a later addOutput into auth is refused', () => {
    const { stack } = newStack();
    const userPool = new cognito.UserPool(stack, 'UserPool');
    new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient: userPool.addClient('Client') });
    expect(() => VendorOutputs.of(stack).addOutput({ auth: { vendorRegion: 'x', userPoolId: 'y', userPoolClientId: 'z' } }))
      .toThrow(/Backend cannot addOutput 'auth.vendor_region', 'auth.user_pool_id', 'auth.user_pool_client_id': section 'auth' is generated from Backend\/Auth/);
  });

  test('a second producer is refused', () => {
    const { stack } = newStack();
    const userPool = new cognito.UserPool(stack, 'UserPool');
    const userPoolClient = userPool.addClient('Client');
    new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient });
    expect(() => new AuthOutputsProducer(stack, 'Auth2', { userPool, userPoolClient }))
      .toThrow("Section 'auth' is already produced by Backend/Auth; Backend/Auth2 cannot produce it too.");
  });

  describe('validation', () => {
    test('a domain with a client without logout URLs', () => {
      const { stack } = newStack();
      const userPool = new cognito.UserPool(stack, 'UserPool');
      const userPoolClient = userPool.addClient('Client', { oAuth: { callbackUrls: ['https://a.example.com/'] } });
      const domain = userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: 'x-auth' } });
      expect(() => new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient, domain }))
        .toThrow('Backend/Auth: auth.oauth.redirect_sign_out_uri needs at least one URL: set oAuth.logoutUrls on the user pool client');
    });

    test('a domain with OAuth disabled on the client', () => {
      const { stack } = newStack();
      const userPool = new cognito.UserPool(stack, 'UserPool');
      const userPoolClient = userPool.addClient('Client', { disableOAuth: true });
      const domain = userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: 'x-auth' } });
      expect(() => new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient, domain }))
        .toThrow(/Backend\/Auth: a domain is given but the user pool client has OAuth disabled/);
    });

    test('a domain with an imported client', () => {
      const { stack } = newStack();
      const userPool = new cognito.UserPool(stack, 'UserPool');
      const userPoolClient = cognito.UserPoolClient.fromUserPoolClientId(stack, 'Client', 'abc');
      const domain = userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: 'x-auth' } });
      expect(() => new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient, domain }))
        .toThrow(/auth.oauth needs the OAuth settings of the user pool client, but the client is imported/);
    });

    test.each([[5, false], [6, true], [99, true], [100, false]])('password minimum length %d valid: %s (checked by the schema at synth)', (minLength, ok) => {
      const { app, stack } = newStack();
      const userPool = new cognito.UserPool(stack, 'UserPool');
      (userPool.node.defaultChild as cognito.CfnUserPool).policies = { passwordPolicy: { minimumLength: minLength } };
      new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient: userPool.addClient('Client') });
      if (ok) {
        expect(synthOutputs(app, stack).auth.password_policy.min_length).toBe(minLength);
      } else {
        expect(() => app.synth()).toThrow(`/auth/password_policy/min_length: must be an integer from 6 to 99 inclusive (got ${minLength}) [from Backend/Auth]`);
      }
    });
  });
});
