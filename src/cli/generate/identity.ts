/**
 * How `--app-id ID --branch NAME` finds a stack: by the stack tags that
 * `BackendIdentity.tag(stack, { appId, branch })` records at synth
 * (src/outputs/backend-identity.ts, which holds the same constants; a test keeps them equal).
 * This copy exists because the CLI must not load aws-cdk-lib.
 */
import { CliError } from '../command';

/** Stack tag holding the app identifier. */
export const APP_ID_TAG = 'vendor-outputs:app-id';
/** Stack tag holding the version-control branch. */
export const BRANCH_TAG = 'vendor-outputs:branch';

/** What identity matching needs of a stack. */
export interface TaggedStack {
  readonly name: string;
  readonly tags: Record<string, string>;
}

/** The one stack tagged with `appId` and `branch`; throws when none or several are. */
export function selectByIdentity<T extends TaggedStack>(stacks: T[], appId: string, branch: string, where: string): T {
  const matches = stacks.filter((s) => s.tags[APP_ID_TAG] === appId && s.tags[BRANCH_TAG] === branch);
  if (matches.length === 1) {
    return matches[0];
  }
  const wanted = `tags ${APP_ID_TAG}=${appId} and ${BRANCH_TAG}=${branch}`;
  if (matches.length === 0) {
    const sameApp = stacks.filter((s) => s.tags[APP_ID_TAG] === appId);
    const hint = sameApp.length > 0
      ? `; stacks of app ${appId}: ${sameApp.map((s) => `${s.name} (branch ${s.tags[BRANCH_TAG] ?? 'untagged'})`).join(', ')}`
      : '; tag the backend stack at synth with BackendIdentity.tag(stack, { appId, branch })';
    throw new CliError(`no stack ${where} has ${wanted}${hint}`);
  }
  throw new CliError(`${matches.length} stacks ${where} have ${wanted}: ${matches.map((s) => s.name).join(', ')}; pick one with --stack NAME`);
}
