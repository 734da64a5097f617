import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { DataAuthorizationType, MfaConfiguration, MfaMethod, NotificationChannel, OAuthIdentityProvider, OAuthResponseType, OutputSection, StandardAttribute, UsernameAttribute, VendorOutputs } from '../../src';

test('combined vendor_outputs.json of a stack with every section (literal and deploy-time values)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-snap-'));
  try {
    const app = new App({ outdir });
    const stack = new Stack(app, 'ExampleBackend', { env: { region: 'eu-west-1' } });
    const auth = new Construct(stack, 'Auth');
    VendorOutputs.of(auth).claim(OutputSection.AUTH);
    VendorOutputs.of(auth).addOutput({
      auth: {
        vendorRegion: stack.region,
        userPoolId: 'eu-west-1_example',
        userPoolClientId: 'exampleclient',
        passwordPolicy: { minLength: 8, requireNumbers: true },
        oauth: {
          identityProviders: [OAuthIdentityProvider.IDP_ONE],
          domain: 'example.auth.eu-west-1.example.com',
          scopes: ['openid'],
          redirectSignInUri: ['http://localhost:3000/'],
          redirectSignOutUri: ['http://localhost:3000/'],
          responseType: OAuthResponseType.CODE,
        },
        standardRequiredAttributes: [StandardAttribute.EMAIL],
        usernameAttributes: [UsernameAttribute.EMAIL],
        mfaConfiguration: MfaConfiguration.OPTIONAL,
        mfaMethods: [MfaMethod.TOTP],
      },
    });
    VendorOutputs.of(stack).addOutput({
      data: { vendorRegion: stack.region, url: 'https://example/graphql', defaultAuthorizationType: DataAuthorizationType.API_KEY, authorizationTypes: [DataAuthorizationType.API_KEY, DataAuthorizationType.VENDOR_IAM] },
      notifications: { vendorRegion: stack.region, vendorMessagingAppId: 'app', channels: [NotificationChannel.EMAIL] },
      analytics: { vendorMessaging: { vendorRegion: stack.region, appId: 'app' } },
      storage: { vendorRegion: stack.region, bucketName: new s3.Bucket(stack, 'Bucket').bucketName },
      custom: { api_name: 'items', nested: { flag: false } },
    });
    app.synth();
    expect(JSON.parse(fs.readFileSync(path.join(outdir, 'ExampleBackend.vendor_outputs.json'), 'utf8'))).toMatchSnapshot();
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});
