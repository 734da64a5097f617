import {
  APP_ID_VARIABLES, appIdPlaces, BRANCH_VARIABLES, branchPlaces, HOSTED_BUILD_VARIABLES, hostedIdentity, shortRefName,
} from '../../../src/outputs/cdk-free/hosted-build';

test.each([
  // [variables, branch, variable used]
  [{ AWS_BRANCH: 'main' }, 'main', 'AWS_BRANCH'],
  [{ GITHUB_REF_NAME: 'feature/login' }, 'feature/login', 'GITHUB_REF_NAME'],
  [{ GITHUB_REF_NAME: '42/merge', GITHUB_HEAD_REF: 'feature/login' }, 'feature/login', 'GITHUB_HEAD_REF'],
  [{ GITHUB_REF_NAME: 'main', GITHUB_HEAD_REF: '' }, 'main', 'GITHUB_REF_NAME'],
  [{ CI_COMMIT_REF_NAME: 'develop' }, 'develop', 'CI_COMMIT_REF_NAME'],
  [{ CI_COMMIT_REF_NAME: 'refs/merge-requests/7/head', CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'fix-7' }, 'fix-7', 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME'],
  [{ BITBUCKET_BRANCH: 'release/2' }, 'release/2', 'BITBUCKET_BRANCH'],
  [{ CODEBUILD_WEBHOOK_HEAD_REF: 'refs/heads/main' }, 'main', 'CODEBUILD_WEBHOOK_HEAD_REF'],
  [{ CODEBUILD_WEBHOOK_HEAD_REF: 'refs/heads/feature/a' }, 'feature/a', 'CODEBUILD_WEBHOOK_HEAD_REF'],
  [{ CODEBUILD_WEBHOOK_HEAD_REF: 'refs/tags/v1.2' }, 'v1.2', 'CODEBUILD_WEBHOOK_HEAD_REF'],
  [{ CIRCLE_BRANCH: 'main' }, 'main', 'CIRCLE_BRANCH'],
  [{ BUILD_SOURCEBRANCH: 'refs/heads/feature/tools' }, 'feature/tools', 'BUILD_SOURCEBRANCH'],
  [{ BUILD_SOURCEBRANCH: 'refs/pull/1/merge', SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/topic' }, 'topic', 'SYSTEM_PULLREQUEST_SOURCEBRANCH'],
  [{ SYSTEM_PULLREQUEST_SOURCEBRANCH: 'topic' }, 'topic', 'SYSTEM_PULLREQUEST_SOURCEBRANCH'],
  [{ VERCEL_GIT_COMMIT_REF: 'preview-x' }, 'preview-x', 'VERCEL_GIT_COMMIT_REF'],
  [{ VENDOR_OUTPUTS_BRANCH: 'jenkins-branch' }, 'jenkins-branch', 'VENDOR_OUTPUTS_BRANCH'],
])('%j gives branch %s from %s', (env, value, source) => {
  expect(hostedIdentity(env).branch).toEqual({ value, source });
});

test.each([
  [{ AWS_APP_ID: 'd123' }, 'd123', 'AWS_APP_ID'],
  [{ VENDOR_OUTPUTS_APP_ID: 'shop' }, 'shop', 'VENDOR_OUTPUTS_APP_ID'],
  [{ AWS_APP_ID: 'd123', VENDOR_OUTPUTS_APP_ID: 'shop' }, 'd123', 'AWS_APP_ID'],
  [{ AWS_APP_ID: '', VENDOR_OUTPUTS_APP_ID: 'shop' }, 'shop', 'VENDOR_OUTPUTS_APP_ID'],
  [{ AWS_APP_ID: '  ', VENDOR_OUTPUTS_APP_ID: 'shop' }, 'shop', 'VENDOR_OUTPUTS_APP_ID'],
])('%j gives app id %s from %s', (env, value, source) => {
  expect(hostedIdentity(env).appId).toEqual({ value, source });
});

test('each branch variable wins over every later one, and loses to every earlier one', () => {
  for (const [i, variable] of BRANCH_VARIABLES.entries()) {
    const env = Object.fromEntries(BRANCH_VARIABLES.slice(i).map((v) => [v, `from-${v}`]));
    expect(hostedIdentity(env).branch).toEqual({ value: `from-${variable}`, source: variable });
  }
});

test('the documented precedence', () => {
  expect(APP_ID_VARIABLES).toEqual(['AWS_APP_ID', 'VENDOR_OUTPUTS_APP_ID']);
  expect(BRANCH_VARIABLES).toEqual([
    'AWS_BRANCH', 'GITHUB_HEAD_REF', 'GITHUB_REF_NAME', 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', 'CI_COMMIT_REF_NAME',
    'BITBUCKET_BRANCH', 'CODEBUILD_WEBHOOK_HEAD_REF', 'CIRCLE_BRANCH', 'SYSTEM_PULLREQUEST_SOURCEBRANCH',
    'BUILD_SOURCEBRANCH', 'VERCEL_GIT_COMMIT_REF', 'VENDOR_OUTPUTS_BRANCH',
  ]);
  expect(HOSTED_BUILD_VARIABLES).toEqual([...APP_ID_VARIABLES, ...BRANCH_VARIABLES]);
});

test('empty and blank variables count as unset; nothing set gives nothing', () => {
  const blank = Object.fromEntries(HOSTED_BUILD_VARIABLES.map((v, i) => [v, i % 2 === 0 ? '' : ' \t']));
  expect(hostedIdentity(blank)).toEqual({ appId: undefined, branch: undefined });
  expect(hostedIdentity({})).toEqual({ appId: undefined, branch: undefined });
  expect(hostedIdentity({ AWS_BRANCH: '', GITHUB_REF_NAME: 'main' }).branch).toEqual({ value: 'main', source: 'GITHUB_REF_NAME' });
});

test('variables other than the table are not read (e.g. a generic BRANCH)', () => {
  expect(hostedIdentity({ BRANCH: 'main', APP_ID: 'd1', GIT_BRANCH: 'origin/main' })).toEqual({ appId: undefined, branch: undefined });
});

test.each([
  ['refs/heads/main', 'main'],
  ['refs/heads/feature/x', 'feature/x'],
  ['refs/tags/v1', 'v1'],
  ['refs/pull/3/merge', 'refs/pull/3/merge'],
  ['main', 'main'],
  ['refs/heads/', 'refs/heads/'],
  ['xrefs/heads/main', 'xrefs/heads/main'],
])('shortRefName(%s) is %s', (ref, short) => {
  expect(shortRefName(ref)).toBe(short);
});

test('places for messages list the variables in order', () => {
  expect(appIdPlaces()).toBe('AWS_APP_ID or VENDOR_OUTPUTS_APP_ID');
  expect(appIdPlaces('cdk.json')).toBe('AWS_APP_ID, VENDOR_OUTPUTS_APP_ID or cdk.json');
  expect(branchPlaces()).toBe(`${BRANCH_VARIABLES.slice(0, -1).join(', ')} or VENDOR_OUTPUTS_BRANCH`);
});
