/**
 * The stack chosen by its BackendIdentity tags (app id and branch), and the errors when none or
 * several match.
 */
import { BackendIdentity } from '../../../src';
import { selectByIdentity } from '../../../src/cli/rebuild/identity';
import { APP_ID_TAG, BRANCH_TAG } from '../../../src/outputs/cdk-free/identity-tags';

describe('identity', () => {
  test('the CLI tag keys are the ones BackendIdentity writes', () => {
    expect(APP_ID_TAG).toBe(BackendIdentity.APP_ID_TAG);
    expect(BRANCH_TAG).toBe(BackendIdentity.BRANCH_TAG);
  });

  const tagged = (stackName: string, appId?: string, branch?: string) => ({
    stackName,
    tags: { ...(appId ? { [APP_ID_TAG]: appId } : {}), ...(branch ? { [BRANCH_TAG]: branch } : {}) },
  });

  test('picks the one stack with both tags', () => {
    const stacks = [tagged('A', 'app', 'dev'), tagged('B', 'app', 'main'), tagged('C', 'other', 'main')];
    expect(selectByIdentity(stacks, 'app', 'main', 'here').stackName).toBe('B');
  });

  test('no match: names the stacks of the app, or how to tag', () => {
    expect(() => selectByIdentity([tagged('A', 'app')], 'app', 'main', 'here'))
      .toThrow('no stack here has tags vendor-outputs:app-id=app and vendor-outputs:branch=main; stacks of app app: A (branch untagged)');
    expect(() => selectByIdentity([tagged('A')], 'app', 'main', 'here'))
      .toThrow('; tag the backend stack at synth with BackendIdentity.tag(stack, { appId, branch })');
  });

  test('several matches: lists them', () => {
    expect(() => selectByIdentity([tagged('A', 'app', 'main'), tagged('B', 'app', 'main')], 'app', 'main', 'here'))
      .toThrow('2 stacks here have tags vendor-outputs:app-id=app and vendor-outputs:branch=main: A, B; pick one with --stack NAME');
  });
});
