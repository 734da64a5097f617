import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';

/** Options of {@link VendorOutputs.publishToBucket}. */
export interface PublishToBucketOptions {
  /**
   * A CloudFront distribution that serves the bucket: the object's path is invalidated in it
   * after each publication, so the next request gets the new file.
   *
   * @default - no invalidation
   */
  readonly distribution?: cloudfront.IDistribution;
}
