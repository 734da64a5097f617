/** The `storage` section: the bucket the frontend uses. */
export interface StorageOutputs {
  /** Region of the bucket. */
  readonly vendorRegion: string;
  /** Name of the bucket. */
  readonly bucketName: string;
}
