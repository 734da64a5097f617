/**
 * How `--app-id ID --branch NAME` finds a stack: by the stack tags that
 * `BackendIdentity.tag(stack, { appId, branch })` records at synth (src/outputs/identity-tags.ts).
 */
import { APP_ID_TAG, BRANCH_TAG } from '../../outputs/cdk-free/identity-tags';
import { CliError } from '../command';

/** What identity matching needs of a stack. */
export interface TaggedStack {
  readonly stackName: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** The stacks tagged with `appId` and `branch`. */
export function taggedWith<T extends TaggedStack>(stacks: readonly T[], appId: string, branch: string): T[] {
  return stacks.filter((s) => s.tags[APP_ID_TAG] === appId && s.tags[BRANCH_TAG] === branch);
}

/** The one stack tagged with `appId` and `branch`; throws when none or several are. */
export function selectByIdentity<T extends TaggedStack>(stacks: readonly T[], appId: string, branch: string, where: string): T {
  const matches = taggedWith(stacks, appId, branch);
  if (matches.length === 1) {
    return matches[0];
  }
  const wanted = `tags ${APP_ID_TAG}=${appId} and ${BRANCH_TAG}=${branch}`;
  if (matches.length === 0) {
    const sameApp = stacks.filter((s) => s.tags[APP_ID_TAG] === appId);
    const hint = sameApp.length > 0
      ? `; stacks of app ${appId}: ${sameApp.map((s) => `${s.stackName} (branch ${s.tags[BRANCH_TAG] ?? 'untagged'})`).join(', ')}`
      : '; tag the backend stack at synth with BackendIdentity.tag(stack, { appId, branch })';
    throw new CliError(`no stack ${where} has ${wanted}${hint}`);
  }
  throw new CliError(`${matches.length} stacks ${where} have ${wanted}: ${matches.map((s) => s.stackName).join(', ')}; pick one with --stack NAME`);
}
