import { Annotations, Stack, Token } from 'aws-cdk-lib';
import { APP_ID_CONTEXT_KEY, appIdPlaces, branchPlaces, FoundValue, hostedIdentity } from './cdk-free/hosted-build';
import { APP_ID_TAG, BRANCH_TAG, MAX_TAG_VALUE_LENGTH } from './cdk-free/identity-tags';

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

/** Options of {@link BackendIdentity.tagFromEnvironment}. */
export interface BackendIdentityFromEnvironmentOptions {
  /**
   * The app identifier, when the build's environment does not hold the right one.
   *
   * @default - the first set of the environment variables `AWS_APP_ID` (the anchor toolchain's
   * hosted builds) and `VENDOR_OUTPUTS_APP_ID`, else the context value `vendor-outputs:app-id`
   * (for example in cdk.json's `context`)
   */
  readonly appId?: string;

  /**
   * The branch, when the build's environment does not hold the right one.
   *
   * @default - the first set of `AWS_BRANCH`, `GITHUB_HEAD_REF`, `GITHUB_REF_NAME`,
   * `CI_MERGE_REQUEST_SOURCE_BRANCH_NAME`, `CI_COMMIT_REF_NAME`, `BITBUCKET_BRANCH`,
   * `CODEBUILD_WEBHOOK_HEAD_REF`, `CIRCLE_BRANCH`, `SYSTEM_PULLREQUEST_SOURCEBRANCH`,
   * `BUILD_SOURCEBRANCH`, `VERCEL_GIT_COMMIT_REF` and `VENDOR_OUTPUTS_BRANCH` (`refs/heads/` and
   * `refs/tags/` dropped from the CodeBuild and Azure refs)
   */
  readonly branch?: string;

  /**
   * Whether a missing app id or branch fails the synth. With `false`, the stack is left untagged
   * (with an info annotation saying what was missing), for example in a synth on a developer's
   * machine, outside any pipeline.
   *
   * @default true
   */
  readonly required?: boolean;
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
   * Tags `stack` with the app identifier and branch of the hosted CI/CD build the synth runs in,
   * read from the same environment variables, in the same order, as
   * `vendor-outputs generate` reads them to find the stack after deploy: so one pipeline tags the
   * stack it deploys and then finds it. Values in `options` win over the environment, one by one.
   * An empty variable counts as unset.
   *
   * Returns the identity recorded, or undefined when `required` is false and none was complete.
   * Throws, naming the variables looked at, when the app id or branch is missing (unless
   * `required` is false), and for the reasons {@link BackendIdentity.tag} throws.
   */
  public static tagFromEnvironment(stack: Stack, options: BackendIdentityFromEnvironmentOptions = {}): BackendIdentityProps | undefined {
    const where = `BackendIdentity.tagFromEnvironment(${stack.node.path})`;
    const found = hostedIdentity(process.env);
    const appId = options.appId !== undefined ? { value: options.appId, source: 'options.appId' } : found.appId ?? contextAppId(stack, where);
    const branch = options.branch !== undefined ? { value: options.branch, source: 'options.branch' } : found.branch;
    if (appId === undefined || branch === undefined) {
      const missing = [
        ...(appId === undefined ? [`no app id (looked at ${appIdPlaces(`the context value "${APP_ID_CONTEXT_KEY}"`)})`] : []),
        ...(branch === undefined ? [`no branch (looked at ${branchPlaces()})`] : []),
      ].join(' and ');
      if (options.required === false) {
        Annotations.of(stack).addInfo(`${where}: not tagged: ${missing}`);
        return undefined;
      }
      throw new Error(`${where}: ${missing}; set them, pass { appId, branch }, or pass { required: false } to leave the stack untagged outside a hosted build`);
    }
    checkValue(stack, 'appId', appId.value, where, appId.source);
    checkValue(stack, 'branch', branch.value, where, branch.source);
    BackendIdentity.tag(stack, { appId: appId.value, branch: branch.value });
    return { appId: appId.value, branch: branch.value };
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

/** `source` names where the value came from, when not from the caller's props. */
function checkValue(stack: Stack, name: string, value: string, where = `BackendIdentity.tag(${stack.node.path})`, source?: string): void {
  const from = source === undefined ? '' : ` (from ${source})`;
  if (Token.isUnresolved(value)) {
    throw new Error(`${where}: ${name}${from} must be known at synth (got a deploy-time token); stack tags cannot hold deploy-time values`);
  }
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error(`${where}: ${name}${from} must be a non-empty string (got ${JSON.stringify(value)})`);
  }
  if (value.length > BackendIdentity.MAX_VALUE_LENGTH) {
    throw new Error(`${where}: ${name}${from} must be at most ${BackendIdentity.MAX_VALUE_LENGTH} characters (got ${value.length})`);
  }
}

/** The app id the CDK app was given as context (cdk.json's `context`, `cdk synth -c`). */
function contextAppId(stack: Stack, where: string): FoundValue | undefined {
  const value: unknown = stack.node.tryGetContext(APP_ID_CONTEXT_KEY);
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`${where}: the context value "${APP_ID_CONTEXT_KEY}" must be a non-empty string (got ${JSON.stringify(value)})`);
  }
  return { value, source: `context ${APP_ID_CONTEXT_KEY}` };
}
