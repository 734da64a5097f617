import * as fs from 'fs';
import * as path from 'path';
import { VendorOutputsSchema } from '../../src';

/** A document that sets every field the spec defines. */
export function maximalDocument(): any {
  return {
    $schema: VendorOutputsSchema.SCHEMA_ID,
    version: '1',
    analytics: { vendor_messaging: { vendor_region: 'eu-west-1', app_id: 'app123' } },
    auth: {
      vendor_region: 'eu-west-1',
      user_pool_id: 'eu-west-1_abc',
      user_pool_client_id: 'client',
      identity_pool_id: 'eu-west-1:1234',
      password_policy: { min_length: 8, require_numbers: true, require_lowercase: true, require_uppercase: false, require_symbols: false },
      oauth: {
        identity_providers: ['IDP_ONE', 'IDP_TWO', 'LOGIN_WITH_VENDOR', 'SIGN_IN_WITH_VENDOR'],
        domain: 'auth.example.com',
        scopes: ['openid', 'email'],
        redirect_sign_in_uri: ['https://app.example.com/'],
        redirect_sign_out_uri: ['https://app.example.com/bye'],
        response_type: 'code',
      },
      standard_required_attributes: ['email', 'given_name'],
      username_attributes: ['email', 'phone_number'],
      user_verification_types: ['email'],
      unauthenticated_identities_enabled: false,
      mfa_configuration: 'OPTIONAL',
      mfa_methods: ['SMS', 'TOTP'],
    },
    data: {
      vendor_region: 'eu-west-1',
      url: 'https://x.appsync-api.eu-west-1.amazonaws.com/graphql',
      model_introspection: { version: 1, models: { Todo: { fields: {} } }, anything: [1, 'two', null] },
      api_key: 'da2-xyz',
      default_authorization_type: 'API_KEY',
      authorization_types: ['VENDOR_USER_POOLS', 'VENDOR_IAM', 'VENDOR_LAMBDA', 'OPENID_CONNECT'],
    },
    geo: {
      vendor_region: 'eu-west-1',
      maps: { items: { street: { style: 'VectorEsriStreets' }, plain: {} }, default: 'street' },
      search_indices: { items: ['places'], default: 'places' },
      geofence_collections: { items: ['fences', 'more'], default: 'fences' },
    },
    notifications: {
      vendor_region: 'eu-west-1',
      vendor_messaging_app_id: 'app123',
      channels: ['IN_APP_MESSAGING', 'PUSH_ANDROID', 'PUSH_IOS', 'EMAIL', 'SMS'],
    },
    storage: { vendor_region: 'eu-west-1', bucket_name: 'my-bucket' },
    custom: { api_id: 'abc', api_endpoint: 'https://abc/prod/', api_name: 'items', nested: { free: [true] } },
  };
}

/** Applies `change` to a fresh maximal document and returns the violations. */
function violationsAfter(change: (doc: any) => void) {
  const doc = maximalDocument();
  change(doc);
  return VendorOutputsSchema.validate(doc);
}

describe('the schema file', () => {
  const schema = VendorOutputsSchema.document();

  test('is draft 2020-12, titled, with a dated 2024-02 $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toMatch(/Backend Outputs Config Format/);
    expect(schema.$id).toBe(VendorOutputsSchema.SCHEMA_ID);
    expect(schema.$id).toContain('2024-02');
  });

  test('requires version "1" and makes $schema an optional string', () => {
    expect(schema.required).toEqual(['version']);
    expect(schema.properties.version).toMatchObject({ const: '1' });
    expect(schema.properties.$schema).toMatchObject({ type: 'string' });
  });

  test('ships in the package at FILE_PATH', () => {
    expect(fs.existsSync(VendorOutputsSchema.FILE_PATH)).toBe(true);
    expect(path.basename(VendorOutputsSchema.FILE_PATH)).toBe('vendor-outputs.schema.json');
  });

  test('the generated validator is up to date with the schema', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generate, target } = require('../../scripts/generate-validator.js');
    expect(fs.readFileSync(target, 'utf8')).toBe(generate());
  });
});

describe('validation', () => {
  test('accepts the maximal document', () => {
    expect(VendorOutputsSchema.validate(maximalDocument())).toEqual([]);
  });

  test('accepts the minimal document', () => {
    expect(VendorOutputsSchema.validate({ version: '1' })).toEqual([]);
  });

  test('accepts empty lists where the spec allows zero items', () => {
    expect(violationsAfter((d) => {
      d.auth.oauth.identity_providers = [];
      d.auth.oauth.scopes = [];
      d.auth.standard_required_attributes = [];
    })).toEqual([]);
  });

  test.each([
    ['version', (d: any) => { d.version = '2'; }, '/version', 'must be "1" (got "2")'],
    ['auth.mfa_configuration', (d: any) => { d.auth.mfa_configuration = 'SOMETIMES'; }, '/auth/mfa_configuration', 'must be one of: NONE, OPTIONAL, REQUIRED (got "SOMETIMES")'],
    ['auth.mfa_methods', (d: any) => { d.auth.mfa_methods = ['EMAIL']; }, '/auth/mfa_methods/0', 'must be one of: SMS, TOTP'],
    ['auth.username_attributes', (d: any) => { d.auth.username_attributes = ['nickname']; }, '/auth/username_attributes/0', 'must be one of: email, phone_number, username'],
    ['auth.user_verification_types', (d: any) => { d.auth.user_verification_types = ['username']; }, '/auth/user_verification_types/0', 'must be one of: email, phone_number'],
    ['auth.standard_required_attributes', (d: any) => { d.auth.standard_required_attributes = ['shoe_size']; }, '/auth/standard_required_attributes/0', 'must be one of: address, birthdate'],
    ['auth.oauth.identity_providers', (d: any) => { d.auth.oauth.identity_providers = ['GOOGLE']; }, '/auth/oauth/identity_providers/0', 'must be one of: IDP_ONE, IDP_TWO, LOGIN_WITH_VENDOR, SIGN_IN_WITH_VENDOR'],
    ['auth.oauth.response_type', (d: any) => { d.auth.oauth.response_type = 'id_token'; }, '/auth/oauth/response_type', 'must be one of: code, token'],
    ['data.default_authorization_type', (d: any) => { d.data.default_authorization_type = 'AWS_IAM'; }, '/data/default_authorization_type', 'must be one of: VENDOR_USER_POOLS, API_KEY, VENDOR_IAM, VENDOR_LAMBDA, OPENID_CONNECT'],
    ['data.authorization_types', (d: any) => { d.data.authorization_types = ['NONE']; }, '/data/authorization_types/0', 'must be one of: VENDOR_USER_POOLS'],
    ['notifications.channels', (d: any) => { d.notifications.channels = ['FAX']; }, '/notifications/channels/0', 'must be one of: IN_APP_MESSAGING, PUSH_ANDROID, PUSH_IOS, EMAIL, SMS'],
  ])('rejects a value outside the enum of %s', (_, change, pointer, message) => {
    const violations = violationsAfter(change);
    expect(violations).toHaveLength(1);
    expect(violations[0].pointer).toBe(pointer);
    expect(violations[0].message).toContain(message);
  });

  test.each([
    [5, false], [6, true], [99, true], [100, false],
  ])('password_policy.min_length %d is valid: %s', (minLength, valid) => {
    const violations = violationsAfter((d) => { d.auth.password_policy.min_length = minLength; });
    if (valid) {
      expect(violations).toEqual([]);
    } else {
      expect(violations).toEqual([{ pointer: '/auth/password_policy/min_length', message: `must be an integer from 6 to 99 inclusive (got ${minLength})` }]);
    }
  });

  test('min_length must be an integer', () => {
    expect(violationsAfter((d) => { d.auth.password_policy.min_length = 8.5; })).toEqual([
      { pointer: '/auth/password_policy/min_length', message: 'must be an integer (got 8.5)' },
    ]);
  });

  test.each([
    ['/auth/oauth/redirect_sign_in_uri', (d: any) => { d.auth.oauth.redirect_sign_in_uri = []; }],
    ['/auth/oauth/redirect_sign_out_uri', (d: any) => { d.auth.oauth.redirect_sign_out_uri = []; }],
    ['/auth/username_attributes', (d: any) => { d.auth.username_attributes = []; }],
    ['/notifications/channels', (d: any) => { d.notifications.channels = []; }],
    ['/geo/search_indices/items', (d: any) => { d.geo.search_indices.items = []; }],
    ['/geo/geofence_collections/items', (d: any) => { d.geo.geofence_collections.items = []; }],
  ])('%s needs at least one item', (pointer, change) => {
    expect(violationsAfter(change)).toEqual([{ pointer, message: 'must have at least 1 item (got [])' }]);
  });

  test.each([
    ['/auth/oauth/redirect_sign_in_uri', (d: any) => { d.auth.oauth.redirect_sign_in_uri = ['a', 'a']; }],
    ['/auth/oauth/redirect_sign_out_uri', (d: any) => { d.auth.oauth.redirect_sign_out_uri = ['a', 'a']; }],
    ['/auth/oauth/identity_providers', (d: any) => { d.auth.oauth.identity_providers = ['IDP_ONE', 'IDP_ONE']; }],
    ['/auth/oauth/scopes', (d: any) => { d.auth.oauth.scopes = ['openid', 'openid']; }],
    ['/auth/standard_required_attributes', (d: any) => { d.auth.standard_required_attributes = ['email', 'email']; }],
    ['/auth/username_attributes', (d: any) => { d.auth.username_attributes = ['email', 'email']; }],
    ['/notifications/channels', (d: any) => { d.notifications.channels = ['SMS', 'SMS']; }],
    ['/geo/search_indices/items', (d: any) => { d.geo.search_indices.items = ['a', 'a']; }],
    ['/geo/geofence_collections/items', (d: any) => { d.geo.geofence_collections.items = ['a', 'a']; }],
  ])('%s must not repeat items', (pointer, change) => {
    const violations = violationsAfter(change);
    expect(violations).toHaveLength(1);
    expect(violations[0].pointer).toBe(pointer);
    expect(violations[0].message).toMatch(/^must not repeat items \(items 0 and 1 are equal\)/);
  });

  test.each([
    ['/version', (d: any) => { delete d.version; }],
    ['/analytics/vendor_messaging/vendor_region', (d: any) => { delete d.analytics.vendor_messaging.vendor_region; }],
    ['/analytics/vendor_messaging/app_id', (d: any) => { delete d.analytics.vendor_messaging.app_id; }],
    ['/auth/vendor_region', (d: any) => { delete d.auth.vendor_region; }],
    ['/auth/user_pool_id', (d: any) => { delete d.auth.user_pool_id; }],
    ['/auth/user_pool_client_id', (d: any) => { delete d.auth.user_pool_client_id; }],
    ['/auth/oauth/identity_providers', (d: any) => { delete d.auth.oauth.identity_providers; }],
    ['/auth/oauth/domain', (d: any) => { delete d.auth.oauth.domain; }],
    ['/auth/oauth/scopes', (d: any) => { delete d.auth.oauth.scopes; }],
    ['/auth/oauth/redirect_sign_in_uri', (d: any) => { delete d.auth.oauth.redirect_sign_in_uri; }],
    ['/auth/oauth/redirect_sign_out_uri', (d: any) => { delete d.auth.oauth.redirect_sign_out_uri; }],
    ['/auth/oauth/response_type', (d: any) => { delete d.auth.oauth.response_type; }],
    ['/data/vendor_region', (d: any) => { delete d.data.vendor_region; }],
    ['/data/url', (d: any) => { delete d.data.url; }],
    ['/data/default_authorization_type', (d: any) => { delete d.data.default_authorization_type; }],
    ['/data/authorization_types', (d: any) => { delete d.data.authorization_types; }],
    ['/geo/vendor_region', (d: any) => { delete d.geo.vendor_region; }],
    ['/geo/maps/items', (d: any) => { delete d.geo.maps.items; }],
    ['/geo/maps/default', (d: any) => { delete d.geo.maps.default; }],
    ['/geo/search_indices/items', (d: any) => { delete d.geo.search_indices.items; }],
    ['/geo/search_indices/default', (d: any) => { delete d.geo.search_indices.default; }],
    ['/geo/geofence_collections/items', (d: any) => { delete d.geo.geofence_collections.items; }],
    ['/geo/geofence_collections/default', (d: any) => { delete d.geo.geofence_collections.default; }],
    ['/notifications/vendor_region', (d: any) => { delete d.notifications.vendor_region; }],
    ['/notifications/vendor_messaging_app_id', (d: any) => { delete d.notifications.vendor_messaging_app_id; }],
    ['/notifications/channels', (d: any) => { delete d.notifications.channels; }],
    ['/storage/vendor_region', (d: any) => { delete d.storage.vendor_region; }],
    ['/storage/bucket_name', (d: any) => { delete d.storage.bucket_name; }],
  ])('%s is required', (pointer, change) => {
    expect(violationsAfter(change)).toEqual([{ pointer, message: 'is required but missing' }]);
  });

  test('every password_policy field is optional', () => {
    expect(violationsAfter((d) => { d.auth.password_policy = {}; })).toEqual([]);
  });

  test.each([
    ['', 'extra'],
    ['/analytics', 'extra'],
    ['/analytics/vendor_messaging', 'extra'],
    ['/auth', 'extra'],
    ['/auth/password_policy', 'extra'],
    ['/auth/oauth', 'extra'],
    ['/data', 'extra'],
    ['/geo', 'extra'],
    ['/geo/maps', 'extra'],
    ['/geo/maps/items/street', 'extra'],
    ['/geo/search_indices', 'extra'],
    ['/geo/geofence_collections', 'extra'],
    ['/notifications', 'extra'],
    ['/storage', 'extra'],
  ])('refuses an unknown key under %s', (at, key) => {
    const violations = violationsAfter((d) => {
      const node = at.split('/').slice(1).reduce((n: any, k) => n[k], d);
      node[key] = 'x';
    });
    expect(violations).toHaveLength(1);
    expect(violations[0].pointer).toBe(`${at}/${key}`);
    expect(violations[0].message).toMatch(/^is not allowed here; allowed keys: /);
  });

  test('custom and model_introspection are free-form', () => {
    expect(violationsAfter((d) => {
      d.custom = { 'any': { deep: [1, { x: null }] }, 'key/with~chars': true };
      d.data.model_introspection = { whatever: { nested: ['x'] } };
    })).toEqual([]);
  });

  test('reports every violation at once, with the types that are allowed', () => {
    const violations = violationsAfter((d) => {
      d.storage.bucket_name = 42;
      d.auth.unauthenticated_identities_enabled = 'yes';
      d.custom = [];
    });
    expect(violations).toEqual(expect.arrayContaining([
      { pointer: '/storage/bucket_name', message: 'must be a string (got 42)' },
      { pointer: '/auth/unauthenticated_identities_enabled', message: 'must be a boolean (got "yes")' },
      { pointer: '/custom', message: 'must be an object (got [])' },
    ]));
    expect(violations).toHaveLength(3);
  });
});
