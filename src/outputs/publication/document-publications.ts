/**
 * The places a backend's final document is published to at deploy time: S3 objects and SSM
 * parameters, each made once per backend however often it is asked for.
 */
import { createHash } from 'crypto';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { checkObjectKey, createBucketPublication } from './bucket-publication';
import { checkParameterName, createParameterPublication } from './parameter-publication';
import { PublishToBucketOptions } from './publish-to-bucket-options';
import { OutputsCollector } from '../collector';

export class DocumentPublications extends Construct {
  /** Construct id under the collector. */
  public static readonly ID = 'Publish';

  /** The publications of the backend whose collector this is, created on first use. */
  public static of(collector: OutputsCollector): DocumentPublications {
    return (collector.node.tryFindChild(DocumentPublications.ID) as DocumentPublications | undefined) ?? new DocumentPublications(collector);
  }

  /** What each target was published with, by target, to tell a repeat from a conflict. */
  private readonly settings = new Map<string, { readonly setting: string; readonly source: string }>();

  private constructor(private readonly collector: OutputsCollector) {
    super(collector, DocumentPublications.ID);
  }

  /** Publishes to `bucket`/`key`; asking again with the same settings changes nothing. */
  public toBucket(bucket: s3.IBucket, key: string, options: PublishToBucketOptions, source: string): void {
    checkObjectKey(key, source);
    const target = `s3 object ${key} in ${bucket.node.path}`;
    if (this.isRepeat(target, options.distribution?.node.path ?? '', source)) {
      return;
    }
    createBucketPublication(this.collector, this, `ToBucket-${shortHash(target)}`, bucket, key, options);
  }

  /** Publishes to the SSM parameter `parameterName`; asking again with the same tier changes nothing. */
  public toParameter(parameterName: string, tier: ssm.ParameterTier | undefined, source: string): void {
    checkParameterName(parameterName, source);
    const target = `SSM parameter ${parameterName}`;
    if (this.isRepeat(target, tier ?? 'by size', source)) {
      return;
    }
    createParameterPublication(this.collector, this, `ToParameter-${shortHash(target)}`, parameterName, tier);
  }

  /** True when `target` is already published with `setting`; throws when with another one. */
  private isRepeat(target: string, setting: string, source: string): boolean {
    const earlier = this.settings.get(target);
    if (earlier === undefined) {
      this.settings.set(target, { setting, source });
      return false;
    }
    if (earlier.setting !== setting) {
      throw new Error(`${source}: ${this.collector.backend} already publishes to the ${target} (asked by ${earlier.source}) with other options; publish each target once`);
    }
    return true;
  }
}

/** A short, stable id part for a target. */
function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
