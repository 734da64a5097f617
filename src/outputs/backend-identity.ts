import { Stack, Token } from 'aws-cdk-lib';
import { APP_ID_TAG, BRANCH_TAG, MAX_TAG_VALUE_LENGTH } from './identity-tags';

/** Properties of {@link BackendIdentity.tag}. */
export interface BackendIdentityProps {
  /**
   * Identifier of the app the backend belongs to (for example the hosting app id of the CI/CD
   * pipeline). Must be known at synth: stack tags cannot hold deploy-time values.
   */
  readonly appId: string;

  /** Version-control branch this backend was deployed from (for example `main`). */
  readonly branch: string;
}

/**
 * Records which app and branch a backend stack belongs to, so that
 * `vendor-outputs generate --app-id ID --branch NAME` can find the deployed stack.
 *
 * The identity is stored as two stack tags, `vendor-outputs:app-id` and `vendor-outputs:branch`:
 * the CDK CLI applies them to the CloudFormation stack at deploy, CloudFormation returns them from
 * DescribeStacks, and the cloud assembly keeps them in manifest.json for offline use.
 */
export class BackendIdentity {
  /** Stack tag that holds the app identifier. */
  public static readonly APP_ID_TAG = APP_ID_TAG;

  /** Stack tag that holds the version-control branch. */
  public static readonly BRANCH_TAG = BRANCH_TAG;

  /** Longest value CloudFormation accepts for a stack tag. */
  public static readonly MAX_VALUE_LENGTH = MAX_TAG_VALUE_LENGTH;

  /**
   * Tags `stack` with its app identifier and branch.
   *
   * Throws when a value is empty, longer than 256 characters, a deploy-time token, or when the
   * stack is nested or already tagged with another identity.
   */
  public static tag(stack: Stack, props: BackendIdentityProps): void {
    if (stack.nested) {
      throw new Error(`BackendIdentity.tag: ${stack.node.path} is a nested stack; tag its root stack ${stack.nestedStackParent?.node.path ?? ''} instead`.trimEnd());
    }
    const wanted: Array<[string, string, string]> = [
      [BackendIdentity.APP_ID_TAG, 'appId', props.appId],
      [BackendIdentity.BRANCH_TAG, 'branch', props.branch],
    ];
    for (const [, name, value] of wanted) {
      checkValue(stack, name, value);
    }
    const current = stack.tags.tagValues();
    for (const [key, name, value] of wanted) {
      if (current[key] !== undefined && current[key] !== value) {
        throw new Error(`BackendIdentity.tag: ${stack.node.path} is already tagged ${key}=${current[key]}; cannot set ${name} to '${value}' (a stack belongs to one app and branch)`);
      }
    }
    for (const [key, , value] of wanted) {
      stack.tags.setTag(key, value, TAG_PRIORITY);
    }
  }

  /**
   * The identity recorded on `stack`, or undefined when it has none.
   */
  public static of(stack: Stack): BackendIdentityProps | undefined {
    const tags = stack.tags.tagValues();
    const appId = tags[BackendIdentity.APP_ID_TAG];
    const branch = tags[BackendIdentity.BRANCH_TAG];
    return appId !== undefined && branch !== undefined ? { appId, branch } : undefined;
  }

  private constructor() {}
}

/** Above the default priority of `Tags.of(...).add` (100), so an app-wide tag does not override the identity. */
const TAG_PRIORITY = 1000;

function checkValue(stack: Stack, name: string, value: string): void {
  const where = `BackendIdentity.tag(${stack.node.path})`;
  if (Token.isUnresolved(value)) {
    throw new Error(`${where}: ${name} must be known at synth (got a deploy-time token); stack tags cannot hold deploy-time values`);
  }
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error(`${where}: ${name} must be a non-empty string (got ${JSON.stringify(value)})`);
  }
  if (value.length > BackendIdentity.MAX_VALUE_LENGTH) {
    throw new Error(`${where}: ${name} must be at most ${BackendIdentity.MAX_VALUE_LENGTH} characters (got ${value.length})`);
  }
}
