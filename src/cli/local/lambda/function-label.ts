/** How messages name a function: its construct path, else `<stack>/<logical id>`. */
import type { FunctionSpec } from '../model/function-spec';

export function functionLabel(fn: FunctionSpec): string {
  return fn.constructPath ?? `${fn.stackName}/${fn.logicalId}`;
}
