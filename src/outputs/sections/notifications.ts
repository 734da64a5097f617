/** Messaging channels (`notifications.channels`). */
export enum NotificationChannel {
  IN_APP_MESSAGING = 'IN_APP_MESSAGING',
  PUSH_ANDROID = 'PUSH_ANDROID',
  PUSH_IOS = 'PUSH_IOS',
  EMAIL = 'EMAIL',
  SMS = 'SMS',
}

/** The `notifications` section. */
export interface NotificationsOutputs {
  /** Region of the messaging app. */
  readonly vendorRegion: string;
  /** Id of the messaging app. */
  readonly vendorMessagingAppId: string;
  /** Enabled channels; at least one, items unique. */
  readonly channels: NotificationChannel[];
}
