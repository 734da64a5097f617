import { BackendIdentity } from '../../src';
import { CliError } from '../../src/cli/command';
import { selectByIdentity } from '../../src/cli/rebuild/identity';
import { checkOutputs } from '../../src/cli/rebuild/outputs-file';
import { carriedFromMetadata, rebuildAndValidate, summary } from '../../src/cli/rebuild/rebuilt-document';
import { checkStackStatus } from '../../src/cli/rebuild/stack-status';
import { APP_ID_TAG, BRANCH_TAG } from '../../src/outputs/cdk-free/identity-tags';

describe('stack status', () => {
  test.each(['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'IMPORT_COMPLETE', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS'])('%s is read without warning', (status) => {
    expect(checkStackStatus('S', status)).toBeUndefined();
  });

  test.each(['UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'IMPORT_ROLLBACK_COMPLETE'])('%s is read with a warning', (status) => {
    expect(checkStackStatus('S', status)).toBe(`stack S is ${status}: its last change was rolled back, so the file describes the previous successful deployment`);
  });

  test.each([
    ['CREATE_IN_PROGRESS', 'its outputs may still change'],
    ['UPDATE_IN_PROGRESS', 'its outputs may still change'],
    ['DELETE_IN_PROGRESS', 'its outputs may still change'],
    ['IMPORT_IN_PROGRESS', 'its outputs may still change'],
    ['CREATE_FAILED', 'the deployment failed'],
    ['DELETE_FAILED', 'the deployment failed'],
    ['ROLLBACK_FAILED', 'the deployment failed'],
    ['ROLLBACK_COMPLETE', 'the deployment failed'],
    ['DELETE_COMPLETE', 'which generate does not read (readable states: CREATE_COMPLETE, UPDATE_COMPLETE'],
    [undefined, 'stack S is UNKNOWN, which generate does not read'],
  ])('%s is refused: %s', (status, message) => {
    expect(() => checkStackStatus('S', status)).toThrow(CliError);
    expect(() => checkStackStatus('S', status)).toThrow(message);
  });
});

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

describe('outputs file shape', () => {
  test('accepts { stack: { key: string } }', () => {
    expect(checkOutputs({ S: { K: 'v' }, T: {} }, 'f')).toEqual({ S: { K: 'v' }, T: {} });
  });

  test.each([
    [[], 'f: expected the JSON of'],
    ['x', 'f: expected the JSON of'],
    [{ S: [] }, 'f: the value of "S" is not an object'],
    [{ S: { K: null } }, 'f: "S"."K" is not a string (got null)'],
  ])('%j is refused', (value, message) => {
    expect(() => checkOutputs(value, 'f')).toThrow(message);
  });
});

describe('rebuild', () => {
  const metadata = (carried: unknown) => ({ 'cdk-vendor-outputs/v1': carried });
  const b64 = (...values: string[]) => values.map((v) => Buffer.from(v).toString('base64')).join(',');

  test('fills pending values and validates', () => {
    const carried = carriedFromMetadata(metadata({
      document: { version: '1', storage: { vendor_region: null, bucket_name: null } },
      pending: [{ pointer: '/storage/vendor_region', output: 'O', index: 0 }, { pointer: '/storage/bucket_name', output: 'O', index: 1 }],
    }), 'stack S');
    const document = rebuildAndValidate(carried, { O: b64('eu-west-1', 'b,"\\') }, 'stack S');
    expect(document).toEqual({ version: '1', storage: { vendor_region: 'eu-west-1', bucket_name: 'b,"\\' } });
    expect(summary('stack S', carried, document)).toBe('stack S: 2 deploy-time value(s) filled; sections: storage');
  });

  test.each([
    [{ document: {}, pending: [{ pointer: 'x', output: 'O', index: 0 }] }, 'pending[0].pointer "x" is not a JSON pointer: it must start with \'/\''],
    [{ document: {}, pending: [{ pointer: '/x', output: 1, index: 0 }] }, 'pending[0] must be { pointer: "/...", output: string, index: integer 0..7 } (got {"pointer":"/x","output":1,"index":0})'],
    [{ document: {}, pending: [{ pointer: '/x', output: 'O', index: -1 }] }, 'pending[0] must be'],
    [{ document: {}, pending: [null] }, 'pending[0] must be { pointer: "/...", output: string, index: integer 0..7 } (got null)'],
    [{ document: 'x', pending: [] }, "template Metadata 'cdk-vendor-outputs/v1' is malformed: document must be an object (got \"x\")"],
  ])('malformed carriage %j is refused', (carried, message) => {
    expect(() => carriedFromMetadata(metadata(carried), 'stack S')).toThrow(CliError);
    expect(() => carriedFromMetadata(metadata(carried), 'stack S')).toThrow(message);
  });

  test('no Metadata at all', () => {
    expect(() => carriedFromMetadata(undefined, 'stack S')).toThrow("stack S has no 'cdk-vendor-outputs/v1' template Metadata");
  });

  test('an invalid result lists every violation', () => {
    const carried = carriedFromMetadata(metadata({ document: { version: '2', storage: { bucket_name: null } }, pending: [{ pointer: '/storage/bucket_name', output: 'O', index: 0 }] }), 'stack S');
    expect(() => rebuildAndValidate(carried, { O: b64('b') }, 'stack S'))
      .toThrow(/stack S: the rebuilt vendor_outputs.json is invalid \(nothing written\):\n {2}.*\/version: must be "1" \(got "2"\)/s);
    expect(() => rebuildAndValidate(carried, { O: b64('b') }, 'stack S')).toThrow('/storage/vendor_region: is required but missing');
  });
});
