import { Stack } from 'aws-cdk-lib';

/** Construct path of the ExternalBucket of each stack. */
const externalBuckets = new WeakMap<Stack, string>();

/** The path of the stack's ExternalBucket, if it has one. */
export function externalBucketOf(stack: Stack): string | undefined {
  return externalBuckets.get(stack);
}

/** Records the stack's ExternalBucket. */
export function registerExternalBucket(stack: Stack, path: string): void {
  externalBuckets.set(stack, path);
}
