/**
 * A Lambda function of the app as the local runtime runs it: its settings from the template, its
 * `Runtime` (which picks the runtime family, see lambda/runtime-families.ts) and where its code is.
 */

import type { StandIn } from './stand-in';

/** A stand-in in one of a function's environment variables. */
export interface VariableStandIn extends StandIn {
  readonly variable: string;
}

/** Where a function's code comes from. */
export type FunctionCode =
  | { readonly kind: 'inline'; readonly source: string }
  | { readonly kind: 'directory'; readonly directory: string }
  | { readonly kind: 'unsupported'; readonly reason: string };

/** A Lambda function behind an `AWS_PROXY` integration. */
export interface FunctionSpec {
  /** `<stack artifact id>/<logical id>`: unique across stacks. */
  readonly key: string;
  readonly logicalId: string;
  readonly stackName: string;
  /** Construct path, when the manifest names it (for messages). */
  readonly constructPath?: string;
  /** `FunctionName` when literal, else `<stack>-<logical id>`. */
  readonly functionName: string;
  readonly runtime: string;
  readonly handler: string;
  readonly code: FunctionCode;
  /** `Environment.Variables`, resolved (deployed values, the template's, else stand-ins). */
  readonly environment: Readonly<Record<string, string>>;
  /** The stand-ins in `environment`, by variable (named at start). */
  readonly standIns?: readonly VariableStandIn[];
  /** Variables left out because their expression cannot be evaluated locally, and why. */
  readonly unresolvedVariables?: ReadonlyArray<{ readonly variable: string; readonly problem: string }>;
  /** `Timeout` in seconds (default 3). */
  readonly timeoutSeconds: number;
  /** `MemorySize` in MB (default 128). */
  readonly memoryMb: number;
  /** `ReservedConcurrentExecutions`, when set: the most environments the function may have (0 throttles every call). */
  readonly reservedConcurrency?: number;
  readonly region: string;
}
