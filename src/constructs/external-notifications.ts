import { Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { checkExistingApp, describeMessagingApp } from './messaging-app';
import { INotifications } from './notifications';
import { NotificationChannel } from '../outputs/sections/notifications';

/** Properties of an {@link ExternalNotifications}. */
export interface ExternalNotificationsProps {
  /** Id of the existing messaging app (letters and digits). */
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
 * Describes a messaging app managed outside this backend in vendor_outputs.json: writes
 * `notifications` (`vendor_region`, `vendor_messaging_app_id`, `channels`) and
 * `analytics.vendor_messaging`, and creates no resource. Use it instead of `Notifications`
 * (a backend has one `notifications` section); `Notifications.fromAppId` only references an app.
 *
 * Note: Amazon Pinpoint, the service behind the app, reached end of support on 2026-10-30.
 *
 * @example
 * new ExternalNotifications(this, 'Messaging', {
 *   appId: 'abcdef0123456789',
 *   channels: [NotificationChannel.PUSH_IOS],
 * });
 */
export class ExternalNotifications extends Construct implements INotifications {
  /** Id of the messaging app. */
  public readonly appId: string;
  /** Region of the messaging app. */
  public readonly region: string;
  /** Enabled channels. */
  public readonly channels: NotificationChannel[];

  constructor(scope: Construct, id: string, props: ExternalNotificationsProps) {
    super(scope, id);
    checkExistingApp(this.node.path, props.appId, props.channels);
    this.appId = props.appId;
    this.region = props.region ?? Stack.of(this).region;
    this.channels = [...props.channels];
    describeMessagingApp(this, this.appId, this.region, this.channels);
  }
}
