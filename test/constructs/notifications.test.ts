import * as fs from 'fs';
import * as path from 'path';
import { SecretValue } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Construct } from 'constructs';
import { newStack, synthOutputs } from './support';
import { ExternalNotifications, NotificationChannel, Notifications, NotificationsProps } from '../../src';

const PENDING = expect.stringMatching(/^<pending: /);
const IDENTITY = 'arn:aws:ses:eu-west-1:123456789012:identity/example.com';

describe('Notifications', () => {
  test('an app with every channel: Pinpoint app and channel resources, secrets as dynamic references', () => {
    const { stack } = newStack();
    const notifications = new Notifications(stack, 'Notifications', {
      appName: 'my-app',
      inAppMessaging: true,
      pushAndroid: { serviceJson: SecretValue.secretsManager('fcm-service-json') },
      pushIos: { bundleId: 'com.example.app', teamId: 'TEAM123456', tokenKeyId: 'KEY1234567', tokenKey: SecretValue.secretsManager('apns-key') },
      email: { fromAddress: 'no-reply@example.com', identityArn: IDENTITY, configurationSet: 'tracking' },
      sms: { senderId: 'MyApp' },
    });
    expect(notifications.channels).toEqual(['IN_APP_MESSAGING', 'PUSH_ANDROID', 'PUSH_IOS', 'EMAIL', 'SMS']);
    const template = Template.fromStack(stack);
    const app = { Ref: stack.getLogicalId(notifications.app) };
    template.resourceCountIs('AWS::Pinpoint::App', 1);
    template.hasResourceProperties('AWS::Pinpoint::App', { Name: 'my-app' });
    template.hasResourceProperties('AWS::Pinpoint::GCMChannel', {
      ApplicationId: app,
      Enabled: true,
      DefaultAuthenticationMethod: 'TOKEN',
      ServiceJson: '{{resolve:secretsmanager:fcm-service-json:SecretString:::}}',
    });
    template.hasResourceProperties('AWS::Pinpoint::APNSChannel', {
      ApplicationId: app,
      Enabled: true,
      DefaultAuthenticationMethod: 'TOKEN',
      BundleId: 'com.example.app',
      TeamId: 'TEAM123456',
      TokenKeyId: 'KEY1234567',
      TokenKey: '{{resolve:secretsmanager:apns-key:SecretString:::}}',
    });
    template.hasResourceProperties('AWS::Pinpoint::EmailChannel', {
      ApplicationId: app, Enabled: true, FromAddress: 'no-reply@example.com', Identity: IDENTITY, ConfigurationSet: 'tracking',
    });
    template.hasResourceProperties('AWS::Pinpoint::SMSChannel', { ApplicationId: app, Enabled: true, SenderId: 'MyApp' });
    template.resourceCountIs('AWS::Pinpoint::InAppTemplate', 0);
  });

  test('writes notifications and analytics.vendor_messaging', () => {
    const { app, stack } = newStack();
    new Notifications(stack, 'Notifications', { inAppMessaging: true, sms: {} });
    const outputs = synthOutputs(app, stack);
    expect(outputs.notifications).toEqual({ vendor_region: 'eu-west-1', vendor_messaging_app_id: PENDING, channels: ['IN_APP_MESSAGING', 'SMS'] });
    expect(outputs.analytics).toEqual({ vendor_messaging: { vendor_region: 'eu-west-1', app_id: outputs.notifications.vendor_messaging_app_id } });
  });

  test('legacy FCM key and the APNs sandbox', () => {
    const { stack } = newStack();
    new Notifications(stack, 'Notifications', {
      pushAndroid: { apiKey: SecretValue.secretsManager('fcm-key') },
      pushIos: { bundleId: 'com.example.app', teamId: 'T', tokenKeyId: 'K', tokenKey: SecretValue.secretsManager('apns-key'), sandbox: true },
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Pinpoint::GCMChannel', { ApiKey: '{{resolve:secretsmanager:fcm-key:SecretString:::}}', DefaultAuthenticationMethod: 'KEY', ServiceJson: Match.absent() });
    template.resourceCountIs('AWS::Pinpoint::APNSSandboxChannel', 1);
    template.resourceCountIs('AWS::Pinpoint::APNSChannel', 0);
  });

  test('warns that the messaging service reached end of support', () => {
    const { stack } = newStack();
    new Notifications(stack, 'Notifications', { inAppMessaging: true });
    Annotations.fromStack(stack).hasWarning('/Backend/Notifications', Match.stringLikeRegexp('reached end of support on 2026-10-30'));
  });

  test('fromAppId only references an app: no resource, no warning, nothing in vendor_outputs.json', () => {
    const { app, stack } = newStack();
    const existing = Notifications.fromAppId(stack, 'Existing', { appId: 'abcdef0123456789', channels: [NotificationChannel.PUSH_IOS, NotificationChannel.EMAIL], region: 'us-east-1' });
    expect(existing.appId).toBe('abcdef0123456789');
    expect(existing.region).toBe('us-east-1');
    expect(existing.channels).toEqual(['PUSH_IOS', 'EMAIL']);
    expect(Template.fromStack(stack).toJSON().Resources ?? {}).toEqual({});
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
    // Nothing was added to the backend's outputs, so there is no vendor_outputs.json at all.
    const assembly = app.synth();
    expect(fs.existsSync(path.join(assembly.directory, `${stack.artifactId}.vendor_outputs.json`))).toBe(false);
  });

  test('fromAppId next to new Notifications in one stack synthesizes (the import writes nothing to conflict with)', () => {
    const { app, stack } = newStack();
    new Notifications(stack, 'Notifications', { inAppMessaging: true });
    Notifications.fromAppId(stack, 'Existing', { appId: 'abcdef0123456789', channels: [NotificationChannel.PUSH_IOS] });
    const outputs = synthOutputs(app, stack);
    expect(outputs.notifications).toEqual({ vendor_region: 'eu-west-1', vendor_messaging_app_id: PENDING, channels: ['IN_APP_MESSAGING'] });
  });

  test('the default region of fromAppId is the stack\'s', () => {
    const { stack } = newStack();
    expect(Notifications.fromAppId(stack, 'Existing', { appId: 'abc123', channels: [NotificationChannel.SMS] }).region).toBe('eu-west-1');
  });
});

describe('ExternalNotifications', () => {
  test('describes an existing app in notifications and analytics.vendor_messaging, creating no resource', () => {
    const { app, stack } = newStack();
    const external = new ExternalNotifications(stack, 'Messaging', { appId: 'abcdef0123456789', channels: [NotificationChannel.PUSH_IOS, NotificationChannel.EMAIL], region: 'us-east-1' });
    expect(external.appId).toBe('abcdef0123456789');
    expect(Template.fromStack(stack).toJSON().Resources ?? {}).toEqual({});
    const outputs = synthOutputs(app, stack);
    expect(outputs.notifications).toEqual({ vendor_region: 'us-east-1', vendor_messaging_app_id: 'abcdef0123456789', channels: ['PUSH_IOS', 'EMAIL'] });
    expect(outputs.analytics).toEqual({ vendor_messaging: { vendor_region: 'us-east-1', app_id: 'abcdef0123456789' } });
  });

  test('defaults to the stack\'s region and warns that the messaging service reached end of support', () => {
    const { app, stack } = newStack();
    new ExternalNotifications(stack, 'Messaging', { appId: 'abc123', channels: [NotificationChannel.SMS] });
    Annotations.fromStack(stack).hasWarning('/Backend/Messaging', Match.stringLikeRegexp('reached end of support on 2026-10-30'));
    expect(synthOutputs(app, stack).notifications.vendor_region).toBe('eu-west-1');
  });

  test('a second app in the same backend conflicts (vendor_outputs.json has one notifications section)', () => {
    const { stack } = newStack();
    new Notifications(stack, 'Notifications', { inAppMessaging: true });
    expect(() => new ExternalNotifications(stack, 'Messaging', { appId: 'abc123', channels: [NotificationChannel.SMS] }))
      .toThrow('/notifications/channels: ["IN_APP_MESSAGING"] from Backend/Notifications conflicts with ["SMS"] from Backend/Messaging');
  });
});

describe('Notifications validation', () => {
  test.each<[string, NotificationsProps, string]>([
    ['no channel', {}, 'Backend/Notifications: Notifications needs at least one channel: inAppMessaging, pushAndroid, pushIos, email or sms'],
    ['in-app messaging off and nothing else', { inAppMessaging: false }, 'Notifications needs at least one channel'],
    ['Android push with both credentials', { pushAndroid: { apiKey: SecretValue.unsafePlainText('k'), serviceJson: SecretValue.unsafePlainText('{}') } }, 'Backend/Notifications: pushAndroid needs exactly one of serviceJson (FCM HTTP v1) and apiKey (legacy FCM)'],
    ['Android push with no credential', { pushAndroid: {} }, 'pushAndroid needs exactly one of serviceJson'],
    ['a bad from-address', { email: { fromAddress: 'no-reply', identityArn: IDENTITY } }, 'Backend/Notifications: email.fromAddress must be an e-mail address (got "no-reply")'],
    ['a 12-character sender id', { sms: { senderId: 'ABCDEFGHIJKL' } }, 'Backend/Notifications: sms.senderId must have 1 to 11 letters, digits or hyphens (got "ABCDEFGHIJKL")'],
    ['a 65-character app name', { appName: 'a'.repeat(65), inAppMessaging: true }, 'Backend/Notifications: appName must have 1 to 64 characters and not be blank'],
  ])('refuses %s', (_, props, message) => {
    const { stack } = newStack();
    expect(() => new Notifications(stack, 'Notifications', props)).toThrow(message);
  });

  test.each<[string, NotificationsProps]>([
    ['an 11-character sender id', { sms: { senderId: 'ABCDEFGHIJK' } }],
    ['a 64-character app name', { appName: 'a'.repeat(64), inAppMessaging: true }],
  ])('accepts %s', (_, props) => {
    const { stack } = newStack();
    expect(() => new Notifications(stack, 'Notifications', props)).not.toThrow();
  });
});

describe.each<[string, (scope: Construct, appId: string, channels: NotificationChannel[]) => unknown]>([
  ['Notifications.fromAppId', (scope, appId, channels) => Notifications.fromAppId(scope, 'Existing', { appId, channels })],
  ['ExternalNotifications', (scope, appId, channels) => new ExternalNotifications(scope, 'Existing', { appId, channels })],
])('%s validation', (_, describeApp) => {
  test.each<[string, NotificationChannel[], string]>([
    ['no channels', [], 'Backend/Existing: channels must list at least one of IN_APP_MESSAGING, PUSH_ANDROID, PUSH_IOS, EMAIL, SMS'],
    ['repeated channels', [NotificationChannel.SMS, NotificationChannel.EMAIL, NotificationChannel.SMS], 'Backend/Existing: channels must not repeat; repeated: SMS'],
    ['an unknown channel', ['FAX' as NotificationChannel], 'Backend/Existing: unknown channel(s) FAX; allowed: IN_APP_MESSAGING, PUSH_ANDROID, PUSH_IOS, EMAIL, SMS'],
  ])('refuses %s', (__, channels, message) => {
    const { stack } = newStack();
    expect(() => describeApp(stack, 'abc123', channels)).toThrow(message);
  });

  test.each([
    ['a malformed app id', 'not an id'],
    ['a 65-character app id', 'a'.repeat(65)],
  ])('refuses %s', (__, appId) => {
    const { stack } = newStack();
    expect(() => describeApp(stack, appId, [NotificationChannel.SMS]))
      .toThrow(`Backend/Existing: appId must be the id of a messaging app, letters and digits (got ${JSON.stringify(appId)})`);
  });

  test('accepts a 64-character app id', () => {
    const { stack } = newStack();
    expect(() => describeApp(stack, 'a'.repeat(64), [NotificationChannel.SMS])).not.toThrow();
  });
});
