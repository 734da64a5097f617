/**
 * Which states of a deployed stack generate reads, reads with a warning, or refuses.
 */
import { CliError } from '../../../src/cli/command';
import { checkStackStatus } from '../../../src/cli/rebuild/stack-status';

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
