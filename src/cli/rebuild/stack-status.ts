/**
 * Which CloudFormation stack states `generate` reads from.
 *
 * A stack is read when its template and outputs are those of one successful deployment:
 * - `CREATE_COMPLETE`, `UPDATE_COMPLETE`, `IMPORT_COMPLETE`, and
 *   `UPDATE_COMPLETE_CLEANUP_IN_PROGRESS` (the update succeeded; only old resources are being deleted);
 * - `UPDATE_ROLLBACK_COMPLETE` (+ its cleanup state) and `IMPORT_ROLLBACK_COMPLETE`: the last change
 *   failed and the stack is back on the previous deployment, whose template and outputs agree. Read,
 *   with a warning that the file describes the previous deployment.
 *
 * Anything else is refused: other `*_IN_PROGRESS` states (outputs may change; wait), `*_FAILED`,
 * `ROLLBACK_COMPLETE` (the creation failed; nothing is deployed), `DELETE_COMPLETE`, and states
 * this tool does not know.
 */
import { CliError } from '../command';

const GOOD = new Set(['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'IMPORT_COMPLETE', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS']);
const ROLLED_BACK = new Set(['UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'IMPORT_ROLLBACK_COMPLETE']);

/**
 * Throws a CliError when a stack in `status` cannot be read.
 *
 * @returns a warning to print, or undefined
 */
export function checkStackStatus(stackName: string, status: string | undefined): string | undefined {
  const state = status ?? 'UNKNOWN';
  if (GOOD.has(state)) {
    return undefined;
  }
  if (ROLLED_BACK.has(state)) {
    return `stack ${stackName} is ${state}: its last change was rolled back, so the file describes the previous successful deployment`;
  }
  if (state.endsWith('_IN_PROGRESS')) {
    throw new CliError(`stack ${stackName} is ${state}: its outputs may still change; wait for the deployment to finish, then run generate again`);
  }
  if (state === 'ROLLBACK_COMPLETE' || state.endsWith('_FAILED')) {
    throw new CliError(`stack ${stackName} is ${state}: the deployment failed; fix it and deploy again (readable states: ${[...GOOD, ...ROLLED_BACK].join(', ')})`);
  }
  throw new CliError(`stack ${stackName} is ${state}, which generate does not read (readable states: ${[...GOOD, ...ROLLED_BACK].join(', ')})`);
}
