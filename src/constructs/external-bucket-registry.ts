import { IConstruct } from 'constructs';
import { VendorOutputs } from '../outputs/vendor-outputs';

/**
 * The backend's ExternalBucket is a name reserved on its outputs (one per backend, nested
 * stacks included), so that StorageOutputsProducer and a second ExternalBucket can see it.
 */
const NAMESPACE = 'ExternalBucket';
const NAME = 'storage';

/** The path of the ExternalBucket of the backend that contains `scope`, if it has one. */
export function externalBucketOf(scope: IConstruct): string | undefined {
  return VendorOutputs.of(scope).reservedBy(NAMESPACE, NAME);
}

/** Records `bucket` as its backend's ExternalBucket. */
export function registerExternalBucket(bucket: IConstruct): void {
  VendorOutputs.of(bucket).reserve(NAMESPACE, NAME);
}
