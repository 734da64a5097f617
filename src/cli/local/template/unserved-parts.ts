/**
 * What one stack has that the local API does not serve: its APIs of kinds not served (HTTP and
 * WebSocket APIs, function URLs, GraphQL APIs), the APIs of a served kind that cannot be served
 * (no stage), and the functions that no served API runs, each with why.
 */
import { apiResources } from './api-resources';
import { notInvokedReason } from './function-invokers';
import type { StackTemplate } from './stack-template';
import type { UnservedPart } from '../model/unserved-part';

/** What the API kinds made of a stack. */
export interface StackReading {
  /** The names of the API kinds served (`REST`, ...). */
  readonly servedKinds: ReadonlySet<string>;
  /** Logical ids of the stack's APIs that the kinds read, with their stage count. */
  readonly apiStages: ReadonlyMap<string, number>;
  /** Whether the function of this logical id is run by a served API. */
  readonly runs: (functionId: string) => boolean;
}

export function unservedParts(stack: StackTemplate, reading: StackReading): UnservedPart[] {
  return [...unservedApis(stack, reading), ...unservedFunctions(stack, reading)];
}

function unservedApis(stack: StackTemplate, reading: StackReading): UnservedPart[] {
  const parts: UnservedPart[] = [];
  for (const api of apiResources(stack.resources)) {
    const part = { kind: api.label, stackName: stack.artifact.stackName, logicalId: api.logicalId, label: labelOf(stack, api.logicalId) };
    if (!reading.servedKinds.has(api.kind)) {
      const target = api.functionId === undefined ? '' : ` (function ${labelOf(stack, api.functionId)})`;
      parts.push({ ...part, label: `${part.label}${target}`, reason: api.notServedReason });
    } else if (!reading.apiStages.has(api.logicalId)) {
      parts.push({ ...part, reason: 'not read locally (the warning at start says why)' });
    } else if (reading.apiStages.get(api.logicalId) === 0) {
      parts.push({ ...part, reason: 'it has no stage' });
    }
  }
  return parts;
}

function unservedFunctions(stack: StackTemplate, reading: StackReading): UnservedPart[] {
  return stack.ofType('AWS::Lambda::Function')
    .filter(([logicalId]) => !reading.runs(logicalId))
    .map(([logicalId]) => ({
      kind: 'function',
      stackName: stack.artifact.stackName,
      logicalId,
      label: labelOf(stack, logicalId),
      reason: notInvokedReason(logicalId, stack.resources, (id) => labelOf(stack, id)),
    }));
}

function labelOf(stack: StackTemplate, logicalId: string): string {
  return stack.artifact.constructPaths.get(logicalId) ?? `${stack.artifact.stackName}/${logicalId}`;
}
