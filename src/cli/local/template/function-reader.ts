/**
 * An `AWS::Lambda::Function` of the template as the local runtime runs it: handler, runtime,
 * environment, limits, and its code (inline, or a directory asset of the cloud assembly).
 */
import * as fs from 'fs';
import * as path from 'path';
import { IntrinsicEnvironment, tryEvaluateString } from './intrinsics';
import type { StackArtifact } from './stack-template';
import { ownSet } from '../common/own-record';
import { unsupportedRuntimeReason } from '../lambda/runtime-families';
import type { FunctionCode, FunctionSpec } from '../model/function-spec';

/** The function's name: its `FunctionName`, else the name CloudFormation would give it. */
export function functionNameOf(artifact: StackArtifact, logicalId: string, resource: any): string {
  const name = resource?.Properties?.FunctionName;
  return typeof name === 'string' ? name : `${artifact.stackName}-${logicalId}`;
}

export function readFunction(
  artifact: StackArtifact, logicalId: string, resource: any, objectKeys: Map<string, string>, environment: IntrinsicEnvironment,
): FunctionSpec {
  const p = resource?.Properties ?? {};
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries<any>(p.Environment?.Variables ?? {})) {
    ownSet(variables, name, tryEvaluateString(value, environment) ?? JSON.stringify(value));
  }
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
    timeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : 3,
    memoryMb: Number.isFinite(memory) && memory > 0 ? memory : 128,
    reservedConcurrency: reservedConcurrencyOf(p.ReservedConcurrentExecutions, environment),
    region: artifact.region,
  };
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
