import { Stack, Token } from 'aws-cdk-lib';
import { IdentityPool } from 'aws-cdk-lib/aws-cognito-identitypool';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { externalBucketOf, registerExternalBucket } from './external-bucket-registry';
import { OutputSection } from '../outputs/sections/backend-outputs';
import { StorageOutputs } from '../outputs/sections/storage';
import { VendorOutputs } from '../outputs/vendor-outputs';

/** What identity pool users may do with an {@link ExternalBucket}. */
export enum ExternalBucketAccess {
  /** No access is granted. */
  NONE = 'NONE',
  /** Read and list objects under the prefix. */
  READ = 'READ',
  /** Read, list, write and delete objects under the prefix. */
  READ_WRITE = 'READ_WRITE',
}

/** Properties of an {@link ExternalBucket}. */
export interface ExternalBucketProps {
  /** Name of the existing bucket (3 to 63 lowercase letters, digits, dots and hyphens). */
  readonly bucketName: string;

  /**
   * Region of the bucket, e.g. `eu-west-1`.
   * @default - the stack's region
   */
  readonly region?: string;

  /**
   * The identity pool whose roles get `authenticatedAccess` and `guestAccess`.
   * @default - no identity pool: no access is granted (use `grantRead` / `grantReadWrite`)
   */
  readonly identityPool?: IdentityPool;

  /**
   * Access of the identity pool's authenticated role.
   * @default ExternalBucketAccess.NONE
   */
  readonly authenticatedAccess?: ExternalBucketAccess;

  /**
   * Access of the identity pool's unauthenticated (guest) role.
   * @default ExternalBucketAccess.NONE
   */
  readonly guestAccess?: ExternalBucketAccess;

  /**
   * Key prefix the identity pool grants cover, e.g. `public/`.
   * @default - every object of the bucket
   */
  readonly accessPrefix?: string;
}

/**
 * Describes a bucket managed outside the toolchain in the `storage` section of
 * vendor_outputs.json (`storage.bucket_name`, `storage.vendor_region`), with optional grants to
 * identity pool roles. A backend has one storage bucket: refused when a StorageOutputsProducer
 * already produces `storage`.
 *
 * @example
 * new ExternalBucket(this, 'Media', { bucketName: 'my-media-bucket', region: 'eu-west-1' });
 */
export class ExternalBucket extends Construct {
  /** The imported bucket. */
  public readonly bucket: s3.IBucket;
  /** Name of the bucket. */
  public readonly bucketName: string;
  /** Region of the bucket. */
  public readonly region: string;

  constructor(scope: Construct, id: string, props: ExternalBucketProps) {
    super(scope, id);
    validate(this.node.path, props);
    const stack = Stack.of(this);
    const owner = VendorOutputs.of(this).producerOf(OutputSection.STORAGE);
    if (owner !== undefined) {
      throw new Error(`ExternalBucket ${this.node.path} cannot describe storage: the backend already has a managed storage producer at ${owner}, `
        + 'which generates the storage section from a bucket the backend creates. vendor_outputs.json describes one bucket: remove one of them.');
    }
    const other = externalBucketOf(this);
    if (other !== undefined) {
      throw new Error(`ExternalBucket ${this.node.path} cannot describe storage: ExternalBucket ${other} already does. vendor_outputs.json describes one bucket.`);
    }

    this.bucketName = props.bucketName;
    this.region = props.region ?? stack.region;
    this.bucket = s3.Bucket.fromBucketAttributes(this, 'Bucket', { bucketName: props.bucketName, region: this.region });

    if (props.identityPool) {
      this.grant(props.identityPool.authenticatedRole, props.authenticatedAccess ?? ExternalBucketAccess.NONE, props.accessPrefix);
      this.grant(props.identityPool.unauthenticatedRole, props.guestAccess ?? ExternalBucketAccess.NONE, props.accessPrefix);
    }

    const storage: StorageOutputs = { vendorRegion: this.region, bucketName: this.bucketName };
    VendorOutputs.of(this).addOutput({ storage });
    registerExternalBucket(this);
  }

  /**
   * Grants read and list on objects under `prefix`.
   * @param prefix key prefix, e.g. `public/`; every object when omitted
   */
  public grantRead(grantee: iam.IGrantable, prefix?: string): iam.Grant {
    return this.bucket.grantRead(grantee, objectsPattern(prefix));
  }

  /**
   * Grants read, list, write and delete on objects under `prefix`.
   * @param prefix key prefix, e.g. `public/`; every object when omitted
   */
  public grantReadWrite(grantee: iam.IGrantable, prefix?: string): iam.Grant {
    return this.bucket.grantReadWrite(grantee, objectsPattern(prefix));
  }

  private grant(grantee: iam.IGrantable, access: ExternalBucketAccess, prefix: string | undefined): void {
    if (access === ExternalBucketAccess.READ) {
      this.grantRead(grantee, prefix);
    } else if (access === ExternalBucketAccess.READ_WRITE) {
      this.grantReadWrite(grantee, prefix);
    }
  }
}

function objectsPattern(prefix: string | undefined): string {
  return prefix === undefined || prefix === '' ? '*' : `${prefix}*`;
}

function validate(path: string, props: ExternalBucketProps): void {
  const name = props.bucketName;
  if (!Token.isUnresolved(name)) {
    if (name.length < 3 || name.length > 63 || !/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(name) || name.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(name)) {
      throw new Error(`${path}: bucketName must be a valid S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, `
        + `starting and ending with a letter or digit, not an IP address (got ${JSON.stringify(name)})`);
    }
  }
  if (props.region !== undefined && !Token.isUnresolved(props.region) && !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(props.region)) {
    throw new Error(`${path}: region must be a region name such as 'eu-west-1' (got ${JSON.stringify(props.region)})`);
  }
  const granting = (props.authenticatedAccess ?? ExternalBucketAccess.NONE) !== ExternalBucketAccess.NONE
    || (props.guestAccess ?? ExternalBucketAccess.NONE) !== ExternalBucketAccess.NONE;
  if (granting && props.identityPool === undefined) {
    throw new Error(`${path}: authenticatedAccess and guestAccess need an identityPool whose roles get the access`);
  }
  if (props.accessPrefix !== undefined && !Token.isUnresolved(props.accessPrefix) && (props.accessPrefix.startsWith('/') || props.accessPrefix.includes('*'))) {
    throw new Error(`${path}: accessPrefix is a key prefix such as 'public/': no leading '/' and no '*' (got ${JSON.stringify(props.accessPrefix)})`);
  }
}
