/**
 * What Notifications and ExternalNotifications share: the checks of an existing app's
 * description and the writing of a messaging app to vendor_outputs.json. Internal.
 */
import { Annotations, Token } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { NotificationChannel } from '../outputs/sections/notifications';
import { VendorOutputs } from '../outputs/vendor-outputs';

const END_OF_SUPPORT_WARNING = 'cdk-vendor-outputs:messaging-end-of-support';
const END_OF_SUPPORT = 'The messaging service behind Notifications (Amazon Pinpoint) reached end of support on 2026-10-30: '
  + 'its apps and channels may stop sending or fail to deploy. Plan a move to AWS End User Messaging (SMS, push) and Amazon SES (e-mail).';

/** Throws unless `appId` and `channels` describe an app: an id of letters and digits, at least one known channel, no repeats. */
export function checkExistingApp(path: string, appId: string, channels: NotificationChannel[]): void {
  const allowed = Object.values(NotificationChannel);
  if (channels.length === 0) {
    throw new Error(`${path}: channels must list at least one of ${allowed.join(', ')}`);
  }
  const repeated = channels.filter((c, i) => channels.indexOf(c) !== i);
  if (repeated.length > 0) {
    throw new Error(`${path}: channels must not repeat; repeated: ${[...new Set(repeated)].join(', ')}`);
  }
  const unknown = channels.filter((c) => !allowed.includes(c));
  if (unknown.length > 0) {
    throw new Error(`${path}: unknown channel(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`);
  }
  if (!Token.isUnresolved(appId) && !/^[A-Za-z0-9]{1,64}$/.test(appId)) {
    throw new Error(`${path}: appId must be the id of a messaging app, letters and digits (got ${JSON.stringify(appId)})`);
  }
}

/**
 * Writes the app to `notifications` and `analytics.vendor_messaging`, and warns that the
 * service behind it reached end of support.
 */
export function describeMessagingApp(scope: Construct, appId: string, region: string, channels: NotificationChannel[]): void {
  Annotations.of(scope).addWarningV2(END_OF_SUPPORT_WARNING, END_OF_SUPPORT);
  VendorOutputs.of(scope).addOutput({
    notifications: { vendorRegion: region, vendorMessagingAppId: appId, channels },
    analytics: { vendorMessaging: { vendorRegion: region, appId } },
  });
}
