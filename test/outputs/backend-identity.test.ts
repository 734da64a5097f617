import { App, CfnParameter, NestedStack, Stack, Tags } from 'aws-cdk-lib';
import { BackendIdentity } from '../../src';

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
