import { App, CfnParameter, NestedStack, Stack, Tags } from 'aws-cdk-lib';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import { BackendIdentity } from '../../src';
import { BRANCH_VARIABLES, HOSTED_BUILD_VARIABLES } from '../../src/outputs/cdk-free/hosted-build';

function stackArtifact(app: App, stack: Stack) {
  return app.synth().getStackArtifact(stack.artifactId);
}

test('tag records app id and branch as stack tags, in the assembly manifest', () => {
  const app = new App();
  const stack = new Stack(app, 'Backend');
  BackendIdentity.tag(stack, { appId: 'd1a2b3', branch: 'feature/login' });
  expect(stackArtifact(app, stack).tags).toEqual({
    'vendor-outputs:app-id': 'd1a2b3',
    'vendor-outputs:branch': 'feature/login',
  });
  expect(BackendIdentity.of(stack)).toEqual({ appId: 'd1a2b3', branch: 'feature/login' });
});

test('of returns undefined for an untagged stack', () => {
  expect(BackendIdentity.of(new Stack(new App(), 'S'))).toBeUndefined();
});

test('an app-wide tag with the same key does not override the identity', () => {
  const app = new App();
  const stack = new Stack(app, 'Backend');
  BackendIdentity.tag(stack, { appId: 'd1', branch: 'main' });
  Tags.of(app).add('vendor-outputs:branch', 'other');
  expect(stackArtifact(app, stack).tags['vendor-outputs:branch']).toBe('main');
});

test('tagging again with the same identity is fine; another identity is refused', () => {
  const stack = new Stack(new App(), 'Backend');
  BackendIdentity.tag(stack, { appId: 'd1', branch: 'main' });
  expect(() => BackendIdentity.tag(stack, { appId: 'd1', branch: 'main' })).not.toThrow();
  expect(() => BackendIdentity.tag(stack, { appId: 'd1', branch: 'dev' }))
    .toThrow("BackendIdentity.tag: Backend is already tagged vendor-outputs:branch=main; cannot set branch to 'dev' (a stack belongs to one app and branch)");
});

test.each([
  ['appId', { appId: '', branch: 'main' }, 'appId must be a non-empty string (got "")'],
  ['branch', { appId: 'd1', branch: '' }, 'branch must be a non-empty string (got "")'],
  ['branch', { appId: 'd1', branch: 'b'.repeat(257) }, 'branch must be at most 256 characters (got 257)'],
])('a bad %s is refused', (_, props, message) => {
  const stack = new Stack(new App(), 'Backend');
  expect(() => BackendIdentity.tag(stack, props)).toThrow(`BackendIdentity.tag(Backend): ${message}`);
});

test('256 characters are accepted', () => {
  const stack = new Stack(new App(), 'Backend');
  expect(() => BackendIdentity.tag(stack, { appId: 'a'.repeat(256), branch: 'main' })).not.toThrow();
});

test('a deploy-time token is refused', () => {
  const stack = new Stack(new App(), 'Backend');
  const branch = new CfnParameter(stack, 'Branch').valueAsString;
  expect(() => BackendIdentity.tag(stack, { appId: 'd1', branch }))
    .toThrow('BackendIdentity.tag(Backend): branch must be known at synth (got a deploy-time token); stack tags cannot hold deploy-time values');
});

test('a nested stack is refused', () => {
  const root = new Stack(new App(), 'Root');
  const nested = new NestedStack(root, 'Child');
  expect(() => BackendIdentity.tag(nested, { appId: 'd1', branch: 'main' }))
    .toThrow('BackendIdentity.tag: Root/Child is a nested stack; tag its root stack Root instead');
});

describe('tagFromEnvironment', () => {
  const saved = { ...process.env };

  /** Runs `body` with only `variables` of the hosted-build table set (the test machine's own CI variables removed). */
  function withEnvironment<T>(variables: Record<string, string>, body: () => T): T {
    for (const name of HOSTED_BUILD_VARIABLES) {
      delete process.env[name];
    }
    Object.assign(process.env, variables);
    try {
      return body();
    } finally {
      process.env = { ...saved };
    }
  }

  afterEach(() => {
    process.env = { ...saved };
  });

  test('tags the stack with the hosted build\'s app id and branch, as stack tags in the assembly manifest', () => {
    const app = new App();
    const stack = new Stack(app, 'Backend');
    const identity = withEnvironment({ AWS_APP_ID: 'd123', AWS_BRANCH: 'main' }, () => BackendIdentity.tagFromEnvironment(stack));
    expect(identity).toEqual({ appId: 'd123', branch: 'main' });
    expect(stackArtifact(app, stack).tags).toEqual({ 'vendor-outputs:app-id': 'd123', 'vendor-outputs:branch': 'main' });
  });

  test.each([
    [{ VENDOR_OUTPUTS_APP_ID: 'shop', GITHUB_REF_NAME: 'main' }, 'shop', 'main'],
    [{ VENDOR_OUTPUTS_APP_ID: 'shop', GITHUB_REF_NAME: '12/merge', GITHUB_HEAD_REF: 'feature/cart' }, 'shop', 'feature/cart'],
    [{ VENDOR_OUTPUTS_APP_ID: 'shop', CODEBUILD_WEBHOOK_HEAD_REF: 'refs/heads/release' }, 'shop', 'release'],
    [{ VENDOR_OUTPUTS_APP_ID: 'shop', CI_COMMIT_REF_NAME: 'develop' }, 'shop', 'develop'],
    [{ AWS_APP_ID: 'd9', VENDOR_OUTPUTS_APP_ID: 'shop', AWS_BRANCH: 'dev', BITBUCKET_BRANCH: 'other' }, 'd9', 'dev'],
  ])('%j tags app id %s and branch %s (the same precedence as generate)', (variables, appId, branch) => {
    const app = new App();
    const stack = new Stack(app, 'Backend');
    withEnvironment(variables, () => BackendIdentity.tagFromEnvironment(stack));
    expect(stackArtifact(app, stack).tags).toEqual({ 'vendor-outputs:app-id': appId, 'vendor-outputs:branch': branch });
  });

  test('the app id comes from the context value vendor-outputs:app-id (cdk.json) after the variables', () => {
    const app = new App({ context: { 'vendor-outputs:app-id': 'from-context' } });
    const stack = new Stack(app, 'Backend');
    withEnvironment({ CIRCLE_BRANCH: 'main' }, () => BackendIdentity.tagFromEnvironment(stack));
    expect(BackendIdentity.of(stack)).toEqual({ appId: 'from-context', branch: 'main' });
    const other = new Stack(app, 'Other');
    withEnvironment({ VENDOR_OUTPUTS_APP_ID: 'from-variable', CIRCLE_BRANCH: 'main' }, () => BackendIdentity.tagFromEnvironment(other));
    expect(BackendIdentity.of(other)).toEqual({ appId: 'from-variable', branch: 'main' });
  });

  test('values in options win over the environment, one by one', () => {
    const a = new Stack(new App(), 'A');
    withEnvironment({ AWS_APP_ID: 'd123', AWS_BRANCH: 'main' }, () => BackendIdentity.tagFromEnvironment(a, { branch: 'hotfix' }));
    expect(BackendIdentity.of(a)).toEqual({ appId: 'd123', branch: 'hotfix' });
    const b = new Stack(new App(), 'B');
    withEnvironment({ AWS_APP_ID: 'd123', AWS_BRANCH: 'main' }, () => BackendIdentity.tagFromEnvironment(b, { appId: 'mine' }));
    expect(BackendIdentity.of(b)).toEqual({ appId: 'mine', branch: 'main' });
  });

  test('no branch fails the synth, naming every variable looked at', () => {
    const stack = new Stack(new App(), 'Backend');
    expect(() => withEnvironment({ AWS_APP_ID: 'd123', AWS_BRANCH: '' }, () => BackendIdentity.tagFromEnvironment(stack)))
      .toThrow(`BackendIdentity.tagFromEnvironment(Backend): no branch (looked at ${BRANCH_VARIABLES.slice(0, -1).join(', ')} or VENDOR_OUTPUTS_BRANCH); `
        + 'set them, pass { appId, branch }, or pass { required: false } to leave the stack untagged outside a hosted build');
    expect(BackendIdentity.of(stack)).toBeUndefined();
  });

  test('no app id fails the synth, naming the variables and the context value', () => {
    const stack = new Stack(new App(), 'Backend');
    expect(() => withEnvironment({ GITHUB_REF_NAME: 'main' }, () => BackendIdentity.tagFromEnvironment(stack)))
      .toThrow('BackendIdentity.tagFromEnvironment(Backend): no app id (looked at AWS_APP_ID, VENDOR_OUTPUTS_APP_ID or the context value "vendor-outputs:app-id"); set them');
  });

  test('neither names both', () => {
    const stack = new Stack(new App(), 'Backend');
    expect(() => withEnvironment({}, () => BackendIdentity.tagFromEnvironment(stack)))
      .toThrow(/^BackendIdentity.tagFromEnvironment\(Backend\): no app id \(looked at .*\) and no branch \(looked at AWS_BRANCH, .*\); set them/);
  });

  test('required: false leaves the stack untagged, with an info annotation, and the synth succeeds', () => {
    const app = new App();
    const stack = new Stack(app, 'Backend');
    new CfnParameter(stack, 'P');
    const identity = withEnvironment({ GITHUB_REF_NAME: 'main' }, () => BackendIdentity.tagFromEnvironment(stack, { required: false }));
    expect(identity).toBeUndefined();
    expect(stackArtifact(app, stack).tags).toEqual({});
    Annotations.fromStack(stack).hasInfo('/Backend', 'BackendIdentity.tagFromEnvironment(Backend): not tagged: no app id (looked at AWS_APP_ID, VENDOR_OUTPUTS_APP_ID or the context value "vendor-outputs:app-id")');
    Template.fromStack(stack).templateMatches({ Parameters: { P: { Type: 'String' } } });
  });

  test('required: false still tags when the environment is complete', () => {
    const app = new App();
    const stack = new Stack(app, 'Backend');
    withEnvironment({ AWS_APP_ID: 'd1', AWS_BRANCH: 'main' }, () => BackendIdentity.tagFromEnvironment(stack, { required: false }));
    expect(stackArtifact(app, stack).tags).toEqual({ 'vendor-outputs:app-id': 'd1', 'vendor-outputs:branch': 'main' });
  });

  test('a value too long for a tag names the variable it came from', () => {
    const stack = new Stack(new App(), 'Backend');
    expect(() => withEnvironment({ AWS_APP_ID: 'd1', GITHUB_HEAD_REF: 'b'.repeat(257) }, () => BackendIdentity.tagFromEnvironment(stack)))
      .toThrow('BackendIdentity.tagFromEnvironment(Backend): branch (from GITHUB_HEAD_REF) must be at most 256 characters (got 257)');
  });

  test('a context value that is not a string is refused', () => {
    const stack = new Stack(new App({ context: { 'vendor-outputs:app-id': 42 } }), 'Backend');
    expect(() => withEnvironment({ AWS_BRANCH: 'main' }, () => BackendIdentity.tagFromEnvironment(stack)))
      .toThrow('BackendIdentity.tagFromEnvironment(Backend): the context value "vendor-outputs:app-id" must be a non-empty string (got 42)');
  });

  test('a stack already tagged with another identity is refused', () => {
    const stack = new Stack(new App(), 'Backend');
    BackendIdentity.tag(stack, { appId: 'd1', branch: 'main' });
    expect(() => withEnvironment({ AWS_APP_ID: 'd1', AWS_BRANCH: 'dev' }, () => BackendIdentity.tagFromEnvironment(stack)))
      .toThrow('BackendIdentity.tag: Backend is already tagged vendor-outputs:branch=main; cannot set branch to \'dev\'');
  });
});
