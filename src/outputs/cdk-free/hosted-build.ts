/**
 * The app id and branch of a hosted CI/CD build, read from its environment variables. One table,
 * read by both `BackendIdentity.tagFromEnvironment` (at synth) and `vendor-outputs generate` (after
 * deploy), so the stack a pipeline tags is the stack it finds. Free of aws-cdk-lib; the environment
 * is always passed in.
 */

/** One place a value can come from, in precedence order. */
interface Source {
  /** The environment variable. */
  readonly variable: string;
  /** The host that sets it (for documentation and messages). */
  readonly host: string;
  /** Turns the raw value into a branch name (e.g. `refs/heads/main` into `main`). */
  readonly normalize?: (value: string) => string;
}

/** `refs/heads/main` and `refs/tags/v1` to `main` and `v1`; anything else as it is. */
export function shortRefName(value: string): string {
  const match = /^refs\/(?:heads|tags)\/(.+)$/.exec(value);
  return match ? match[1] : value;
}

/**
 * Where the app id comes from, first found wins: the anchor toolchain's hosted builds set
 * AWS_APP_ID; elsewhere the pipeline sets VENDOR_OUTPUTS_APP_ID (or the project configures it,
 * see {@link APP_ID_CONTEXT_KEY}).
 */
const APP_ID_SOURCES: readonly Source[] = [
  { variable: 'AWS_APP_ID', host: 'the anchor toolchain\'s hosted builds' },
  { variable: 'VENDOR_OUTPUTS_APP_ID', host: 'any pipeline' },
];

/**
 * Where the branch comes from, first found wins. Only one CI system runs a build, so the order
 * matters mainly within a host: a pull or merge request's source branch comes before the ref the
 * build checked out (GitHub's GITHUB_REF_NAME is `<number>/merge` on pull_request events, GitLab's
 * CI_COMMIT_REF_NAME can be a `refs/merge-requests/...` ref), so a request's build finds the backend
 * deployed from its branch. VENDOR_OUTPUTS_BRANCH is for hosts not in the table.
 */
const BRANCH_SOURCES: readonly Source[] = [
  { variable: 'AWS_BRANCH', host: 'the anchor toolchain\'s hosted builds' },
  { variable: 'GITHUB_HEAD_REF', host: 'GitHub Actions, pull_request events (source branch)' },
  { variable: 'GITHUB_REF_NAME', host: 'GitHub Actions (branch or tag)' },
  { variable: 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', host: 'GitLab CI/CD, merge request pipelines (source branch)' },
  { variable: 'CI_COMMIT_REF_NAME', host: 'GitLab CI/CD (branch or tag)' },
  { variable: 'BITBUCKET_BRANCH', host: 'Bitbucket Pipelines' },
  { variable: 'CODEBUILD_WEBHOOK_HEAD_REF', host: 'AWS CodeBuild webhook builds', normalize: shortRefName },
  { variable: 'CIRCLE_BRANCH', host: 'CircleCI' },
  { variable: 'SYSTEM_PULLREQUEST_SOURCEBRANCH', host: 'Azure Pipelines, pull request builds (source branch)', normalize: shortRefName },
  { variable: 'BUILD_SOURCEBRANCH', host: 'Azure Pipelines', normalize: shortRefName },
  { variable: 'VERCEL_GIT_COMMIT_REF', host: 'Vercel' },
  { variable: 'VENDOR_OUTPUTS_BRANCH', host: 'any pipeline' },
];

/** The environment variables that hold the app id, in precedence order. */
export const APP_ID_VARIABLES: readonly string[] = APP_ID_SOURCES.map((s) => s.variable);

/** The environment variables that hold the branch, in precedence order. */
export const BRANCH_VARIABLES: readonly string[] = BRANCH_SOURCES.map((s) => s.variable);

/** Every variable this module reads (for tests that must start from a clean environment). */
export const HOSTED_BUILD_VARIABLES: readonly string[] = [...APP_ID_VARIABLES, ...BRANCH_VARIABLES];

/**
 * The key of the project's own app id: cdk.json's `context` (read by `generate` from the current
 * directory, and by the CDK app at synth like any context value). Used after the variables.
 */
export const APP_ID_CONTEXT_KEY = 'vendor-outputs:app-id';

/** A value and where it came from (a variable name, a flag, a configuration key). */
export interface FoundValue {
  readonly value: string;
  readonly source: string;
}

/** What the environment says; a part is absent when nothing holds it. */
export interface HostedIdentity {
  readonly appId?: FoundValue;
  readonly branch?: FoundValue;
}

/** An environment like `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The app id and branch in `env`, each from the first variable of its list that is set and not
 * blank. The project's configured app id ({@link APP_ID_CONTEXT_KEY}) comes after the variables;
 * callers read it themselves, where they read configuration.
 */
export function hostedIdentity(env: Environment): HostedIdentity {
  return {
    appId: firstSet(env, APP_ID_SOURCES),
    branch: firstSet(env, BRANCH_SOURCES),
  };
}

function firstSet(env: Environment, sources: readonly Source[]): FoundValue | undefined {
  for (const source of sources) {
    const raw = env[source.variable];
    if (raw === undefined || raw.trim() === '') {
      continue;
    }
    const value = source.normalize ? source.normalize(raw) : raw;
    return { value, source: source.variable };
  }
  return undefined;
}

/** Where an app id was looked for, for messages: `AWS_APP_ID, VENDOR_OUTPUTS_APP_ID or ...`. */
export function appIdPlaces(configuration?: string): string {
  return orList(configuration === undefined ? APP_ID_VARIABLES : [...APP_ID_VARIABLES, configuration]);
}

/** Where a branch was looked for, for messages. */
export function branchPlaces(): string {
  return orList(BRANCH_VARIABLES);
}

function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
