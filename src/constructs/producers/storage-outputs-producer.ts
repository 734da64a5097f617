import { Resource, Stack, Token } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { OutputSection } from '../../outputs/sections/backend-outputs';
import { StorageOutputs } from '../../outputs/sections/storage';
import { VendorOutputs } from '../../outputs/vendor-outputs';
import { externalBucketOf } from '../external-bucket-registry';

/** Properties of a {@link StorageOutputsProducer}. */
export interface StorageOutputsProducerProps {
  /**
   * The bucket the frontend uses, created by this backend. An imported bucket (an
   * `s3.IBucket` from `Bucket.fromBucketName` and the like) is not accepted: describe a
   * bucket managed elsewhere with `ExternalBucket` instead.
   */
  readonly bucket: s3.Bucket;
}

/**
 * Produces the `storage` section of vendor_outputs.json (bucket name and region) from a bucket
 * the backend creates, and owns it: afterwards `addOutput({ storage })` and `ExternalBucket` in the
 * same backend are refused.
 *
 * @example
 * new StorageOutputsProducer(this, 'Storage', { bucket });
 */
export class StorageOutputsProducer extends Construct {
  /** The section as written (values may be tokens until deploy). */
  public readonly outputs: StorageOutputs;

  constructor(scope: Construct, id: string, props: StorageOutputsProducerProps) {
    super(scope, id);
    // The type already asks for an s3.Bucket; JavaScript callers get no compiler to tell them.
    if (!Resource.isOwnedResource(props.bucket)) {
      throw new Error(`${this.node.path}: bucket ${props.bucket.node.path} is not created by this backend (it is imported); `
        + 'StorageOutputsProducer describes a bucket the backend owns. Use ExternalBucket for a bucket managed outside the toolchain.');
    }
    const external = externalBucketOf(Stack.of(this));
    if (external !== undefined) {
      throw new Error(`${this.node.path} cannot produce section 'storage': ExternalBucket ${external} already describes the backend's bucket. `
        + 'vendor_outputs.json describes one bucket: remove the ExternalBucket or this producer.');
    }
    // A bucket with a literal name is known at synth; otherwise the name is carried to deploy time.
    const literalName = (props.bucket.node.defaultChild as s3.CfnBucket | undefined)?.bucketName;
    this.outputs = {
      vendorRegion: Stack.of(props.bucket).region,
      bucketName: literalName !== undefined && !Token.isUnresolved(literalName) ? literalName : props.bucket.bucketName,
    };
    VendorOutputs.of(this).claim(OutputSection.STORAGE);
    VendorOutputs.of(this).addOutput({ storage: this.outputs });
  }
}
