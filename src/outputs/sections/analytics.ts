/** `analytics.vendor_messaging`: the messaging app that receives analytics events. */
export interface VendorMessagingOutputs {
  /** Region of the messaging app. */
  readonly vendorRegion: string;
  /** Id of the messaging app. */
  readonly appId: string;
}

/** The `analytics` section. */
export interface AnalyticsOutputs {
  /** @default - not written */
  readonly vendorMessaging?: VendorMessagingOutputs;
}
