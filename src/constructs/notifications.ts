import { SecretValue, Stack, Token } from 'aws-cdk-lib';
import * as pinpoint from 'aws-cdk-lib/aws-pinpoint';
import { Construct, IConstruct } from 'constructs';
import { checkExistingApp, describeMessagingApp } from './messaging-app';
import { NotificationChannel } from '../outputs/sections/notifications';

/** A messaging app and its enabled channels. */
export interface INotifications extends IConstruct {
  /** Id of the messaging app. */
  readonly appId: string;
  /** Region of the messaging app. */
  readonly region: string;
  /** Enabled channels. */
  readonly channels: NotificationChannel[];
}

/** The EMAIL channel. */
export interface EmailChannelOptions {
  /** Verified sender address, e.g. `no-reply@example.com`. */
  readonly fromAddress: string;
  /** ARN of the verified Amazon SES identity (domain or address) the app sends from. */
  readonly identityArn: string;
  /**
   * Amazon SES configuration set applied to the messages.
   * @default - none
   */
  readonly configurationSet?: string;
}

/** The SMS channel. */
export interface SmsChannelOptions {
  /**
   * Sender id shown on recipients' devices, where supported.
   * @default - none
   */
  readonly senderId?: string;
  /**
   * Registered short code to send from.
   * @default - none
   */
  readonly shortCode?: string;
}

/** The PUSH_ANDROID channel (Firebase Cloud Messaging). Give exactly one of `serviceJson` and `apiKey`. */
export interface AndroidPushChannelOptions {
  /**
   * The Firebase service account JSON (FCM HTTP v1, token authentication).
   * @default - none; then `apiKey` is required
   */
  readonly serviceJson?: SecretValue;
  /**
   * Legacy FCM server key.
   * @default - none; then `serviceJson` is required
   */
  readonly apiKey?: SecretValue;
}

/** The PUSH_IOS channel (Apple Push Notification service, token authentication). */
export interface IosPushChannelOptions {
  /** Bundle id of the app, e.g. `com.example.app`. */
  readonly bundleId: string;
  /** Apple developer team id. */
  readonly teamId: string;
  /** Id of the APNs signing key. */
  readonly tokenKeyId: string;
  /** The APNs signing key (the contents of the `.p8` file). */
  readonly tokenKey: SecretValue;
  /**
   * Use the APNs sandbox (development) environment instead of production.
   * @default false
   */
  readonly sandbox?: boolean;
}

/** Properties of {@link Notifications}: at least one channel. */
export interface NotificationsProps {
  /**
   * Name of the messaging app.
   * @default - the construct id
   */
  readonly appName?: string;
  /**
   * Enable in-app messaging (no channel resource; the app serves in-app campaigns).
   * @default false
   */
  readonly inAppMessaging?: boolean;
  /**
   * The EMAIL channel.
   * @default - no e-mail channel
   */
  readonly email?: EmailChannelOptions;
  /**
   * The SMS channel.
   * @default - no SMS channel
   */
  readonly sms?: SmsChannelOptions;
  /**
   * The PUSH_ANDROID channel.
   * @default - no Android push channel
   */
  readonly pushAndroid?: AndroidPushChannelOptions;
  /**
   * The PUSH_IOS channel.
   * @default - no iOS push channel
   */
  readonly pushIos?: IosPushChannelOptions;
}

/** What {@link Notifications.fromAppId} needs to reference an existing messaging app. */
export interface NotificationsFromAppIdOptions {
  /** Id of the existing messaging app. */
  readonly appId: string;
  /** Its enabled channels; at least one, no repeats. */
  readonly channels: NotificationChannel[];
  /**
   * Region of the app.
   * @default - the stack's region
   */
  readonly region?: string;
}

/**
 * A messaging app (Amazon Pinpoint) with its channels, written to the `notifications` section
 * (`vendor_region`, `vendor_messaging_app_id`, `channels`) and to `analytics.vendor_messaging`.
 * Push credentials are `SecretValue`s.
 *
 * Note: Amazon Pinpoint reached end of support on 2026-10-30; see the README.
 *
 * @example
 * new Notifications(this, 'Notifications', { inAppMessaging: true, sms: {} });
 */
export class Notifications extends Construct implements INotifications {
  /**
   * References an existing messaging app by id. Like every import, it adds nothing: no
   * resource, no warning, nothing in vendor_outputs.json. To describe an existing app in
   * vendor_outputs.json, use `ExternalNotifications`.
   */
  public static fromAppId(scope: Construct, id: string, options: NotificationsFromAppIdOptions): INotifications {
    return new ImportedNotifications(scope, id, options);
  }

  /** The messaging app. */
  public readonly app: pinpoint.CfnApp;
  /** Id of the messaging app. */
  public readonly appId: string;
  /** Region of the messaging app. */
  public readonly region: string;
  /** Enabled channels. */
  public readonly channels: NotificationChannel[];

  constructor(scope: Construct, id: string, props: NotificationsProps = {}) {
    super(scope, id);
    const appName = props.appName ?? id;
    const channels = enabledChannels(props);
    checkProps(this.node.path, appName, channels, props);

    this.app = new pinpoint.CfnApp(this, 'Resource', { name: appName });
    this.appId = this.app.ref;
    this.region = Stack.of(this).region;
    this.channels = channels;

    this.addPushAndroidChannel(props.pushAndroid);
    this.addPushIosChannel(props.pushIos);
    this.addEmailChannel(props.email);
    this.addSmsChannel(props.sms);

    describeMessagingApp(this, this.appId, this.region, channels);
  }

  private addPushAndroidChannel(options: AndroidPushChannelOptions | undefined): void {
    if (!options) {
      return;
    }
    new pinpoint.CfnGCMChannel(this, 'PushAndroid', {
      applicationId: this.appId,
      enabled: true,
      ...(options.serviceJson
        ? { serviceJson: options.serviceJson.unsafeUnwrap(), defaultAuthenticationMethod: 'TOKEN' }
        : { apiKey: options.apiKey!.unsafeUnwrap(), defaultAuthenticationMethod: 'KEY' }),
    });
  }

  private addPushIosChannel(options: IosPushChannelOptions | undefined): void {
    if (!options) {
      return;
    }
    const ios = {
      applicationId: this.appId,
      enabled: true,
      defaultAuthenticationMethod: 'TOKEN',
      bundleId: options.bundleId,
      teamId: options.teamId,
      tokenKeyId: options.tokenKeyId,
      tokenKey: options.tokenKey.unsafeUnwrap(),
    };
    if (options.sandbox) {
      new pinpoint.CfnAPNSSandboxChannel(this, 'PushIos', ios);
    } else {
      new pinpoint.CfnAPNSChannel(this, 'PushIos', ios);
    }
  }

  private addEmailChannel(options: EmailChannelOptions | undefined): void {
    if (!options) {
      return;
    }
    new pinpoint.CfnEmailChannel(this, 'Email', {
      applicationId: this.appId,
      enabled: true,
      fromAddress: options.fromAddress,
      identity: options.identityArn,
      configurationSet: options.configurationSet,
    });
  }

  private addSmsChannel(options: SmsChannelOptions | undefined): void {
    if (!options) {
      return;
    }
    new pinpoint.CfnSMSChannel(this, 'Sms', {
      applicationId: this.appId,
      enabled: true,
      senderId: options.senderId,
      shortCode: options.shortCode,
    });
  }
}

/** The channels the props enable, in the order vendor_outputs.json lists them. */
function enabledChannels(props: NotificationsProps): NotificationChannel[] {
  const channels: NotificationChannel[] = [];
  if (props.inAppMessaging) {
    channels.push(NotificationChannel.IN_APP_MESSAGING);
  }
  if (props.pushAndroid) {
    channels.push(NotificationChannel.PUSH_ANDROID);
  }
  if (props.pushIos) {
    channels.push(NotificationChannel.PUSH_IOS);
  }
  if (props.email) {
    channels.push(NotificationChannel.EMAIL);
  }
  if (props.sms) {
    channels.push(NotificationChannel.SMS);
  }
  return channels;
}

/** Refuses props that would not deploy or make no app, naming the construct `path` and the bad value. */
function checkProps(path: string, appName: string, channels: readonly NotificationChannel[], props: NotificationsProps): void {
  if (!Token.isUnresolved(appName) && (appName.trim() === '' || appName.length > 64)) {
    throw new Error(`${path}: appName must have 1 to 64 characters and not be blank (got ${JSON.stringify(appName)})`);
  }
  if (channels.length === 0) {
    throw new Error(`${path}: Notifications needs at least one channel: inAppMessaging, pushAndroid, pushIos, email or sms`);
  }
  if (props.pushAndroid && (props.pushAndroid.serviceJson === undefined) === (props.pushAndroid.apiKey === undefined)) {
    throw new Error(`${path}: pushAndroid needs exactly one of serviceJson (FCM HTTP v1) and apiKey (legacy FCM)`);
  }
  if (props.email && !Token.isUnresolved(props.email.fromAddress) && !/^[^@\s]+@[^@\s]+$/.test(props.email.fromAddress)) {
    throw new Error(`${path}: email.fromAddress must be an e-mail address (got ${JSON.stringify(props.email.fromAddress)})`);
  }
  if (props.sms?.senderId !== undefined && !Token.isUnresolved(props.sms.senderId) && !/^[A-Za-z0-9-]{1,11}$/.test(props.sms.senderId)) {
    throw new Error(`${path}: sms.senderId must have 1 to 11 letters, digits or hyphens (got ${JSON.stringify(props.sms.senderId)})`);
  }
}

/** An existing messaging app, referenced by id. */
class ImportedNotifications extends Construct implements INotifications {
  public readonly appId: string;
  public readonly region: string;
  public readonly channels: NotificationChannel[];

  constructor(scope: Construct, id: string, options: NotificationsFromAppIdOptions) {
    super(scope, id);
    checkExistingApp(this.node.path, options.appId, options.channels);
    this.appId = options.appId;
    this.region = options.region ?? Stack.of(this).region;
    this.channels = [...options.channels];
  }
}
