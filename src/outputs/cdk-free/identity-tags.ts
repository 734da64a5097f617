/**
 * The stack tags that record which app and branch a backend belongs to, defined once:
 * `BackendIdentity.tag` writes them at synth, `vendor-outputs generate --app-id --branch` reads
 * them from the deployed stack or the cloud assembly. Free of aws-cdk-lib.
 */

/** Stack tag holding the app identifier. */
export const APP_ID_TAG = 'vendor-outputs:app-id';

/** Stack tag holding the version-control branch. */
export const BRANCH_TAG = 'vendor-outputs:branch';

/** Longest value CloudFormation accepts for a stack tag. */
export const MAX_TAG_VALUE_LENGTH = 256;
