/**
 * An `AWS::Lambda::Function` of the template as the local runtime runs it: handler, runtime,
 * environment, limits, and its code (inline, or a directory asset of the cloud assembly).
 */
import * as fs from 'fs';
import * as path from 'path';
import { functionNameOf } from './function-name';
import { IntrinsicEnvironment, tryEvaluateString } from './intrinsics';
import type { LocalValues } from './local-values';
import type { StackArtifact } from './stack-template';
import { ownSet } from '../common/own-record';
import { unsupportedRuntimeReason } from '../lambda/runtime-families';
import type { FunctionCode, FunctionSpec, VariableStandIn } from '../model/function-spec';

export function readFunction(
  artifact: StackArtifact, logicalId: string, resource: any, objectKeys: Map<string, string>, values: LocalValues,
): FunctionSpec {
  const p = resource?.Properties ?? {};
  const { variables, standIns, unresolved } = readVariables(p.Environment?.Variables, values);
  const environment = values.known;
  const timeout = Number(p.Timeout ?? 3);
  const memory = Number(p.MemorySize ?? 128);
  return {
    key: `${artifact.artifactId}/${logicalId}`,
    logicalId,
    stackName: artifact.stackName,
    constructPath: artifact.constructPaths.get(logicalId),
    functionName: functionNameOf(artifact, logicalId, resource),
    runtime: typeof p.Runtime === 'string' ? p.Runtime : '(container image)',
    handler: typeof p.Handler === 'string' ? p.Handler : 'index.handler',
    code: readCode(artifact, resource, objectKeys),
    environment: variables,
    ...(standIns.length > 0 ? { standIns } : {}),
    ...(unresolved.length > 0 ? { unresolvedVariables: unresolved } : {}),
    timeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : 3,
    memoryMb: Number.isFinite(memory) && memory > 0 ? memory : 128,
    reservedConcurrency: reservedConcurrencyOf(p.ReservedConcurrentExecutions, environment),
    region: artifact.region,
  };
}

/**
 * `Environment.Variables` as the function sees them: each expression resolved (stand-ins listed by
 * variable); one that cannot be evaluated at all is left out and named, never passed as JSON.
 */
function readVariables(expressions: unknown, values: LocalValues): {
  variables: Record<string, string>; standIns: VariableStandIn[]; unresolved: Array<{ variable: string; problem: string }>;
} {
  const variables: Record<string, string> = {};
  const standIns: VariableStandIn[] = [];
  const unresolved: Array<{ variable: string; problem: string }> = [];
  const entries = expressions !== null && typeof expressions === 'object' && !Array.isArray(expressions) ? Object.entries(expressions as Record<string, unknown>) : [];
  for (const [name, expression] of entries) {
    const text = values.text(expression);
    if (text.value === undefined) {
      unresolved.push({ variable: name, problem: text.problem });
    } else {
      ownSet(variables, name, text.value);
      standIns.push(...text.standIns.map((standIn) => ({ variable: name, ...standIn })));
    }
  }
  return { variables, standIns, unresolved };
}

/** `ReservedConcurrentExecutions` as a count; absent, unresolvable or not a whole number: none. */
function reservedConcurrencyOf(value: unknown, environment: IntrinsicEnvironment): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const text = tryEvaluateString(value, environment);
  const n = text === undefined || text.trim() === '' ? NaN : Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function readCode(artifact: StackArtifact, resource: any, objectKeys: Map<string, string>): FunctionCode {
  const p = resource?.Properties ?? {};
  const unsupportedRuntime = unsupportedRuntimeReason(p.Runtime);
  if (unsupportedRuntime !== undefined) {
    return { kind: 'unsupported', reason: unsupportedRuntime };
  }
  if (typeof p.Code?.ZipFile === 'string') {
    return { kind: 'inline', source: p.Code.ZipFile };
  }
  const assetPath = resource?.Metadata?.['aws:asset:path'];
  const candidates: string[] = [];
  if (typeof assetPath === 'string') {
    candidates.push(path.resolve(artifact.assemblyDir, assetPath));
  }
  if (typeof p.Code?.S3Key === 'string' && objectKeys.has(p.Code.S3Key)) {
    candidates.push(objectKeys.get(p.Code.S3Key)!);
  }
  for (const candidate of candidates) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isDirectory()) {
      return { kind: 'directory', directory: candidate };
    }
  }
  if (candidates.length > 0) {
    return { kind: 'unsupported', reason: `code asset ${candidates[0]} is not a directory in the assembly` };
  }
  return { kind: 'unsupported', reason: 'code is not an asset of this cloud assembly (S3Key does not match any asset manifest entry)' };
}
