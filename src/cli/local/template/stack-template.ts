/**
 * One stack of the cloud assembly as the template readers see it: its artifact, its template's
 * resources, the intrinsic values the template determines, and the functions registered to run.
 * The generic reader (assembly.ts) makes it; each API kind reads its resources from it.
 */
import type { IntrinsicEnvironment } from './intrinsics';
import type { LocalValues } from './local-values';
import type { AssemblyStack } from '../../assembly/cloud-assembly';

/** Region used when a stack is environment-agnostic. */
export const DEFAULT_REGION = 'us-east-1';

/** A stack of the assembly with what the local tools add to it. */
export interface StackArtifact extends AssemblyStack {
  /** The stack's region, or {@link DEFAULT_REGION} when environment-agnostic. */
  readonly region: string;
  /** Logical id → construct path (without a final `/Resource`). */
  readonly constructPaths: Map<string, string>;
}

/** One stack's template, read, for the API kinds' readers. */
export interface StackTemplate {
  readonly artifact: StackArtifact;
  readonly template: Record<string, any>;
  /** The template's `Resources` (an empty object when it has none). */
  readonly resources: Record<string, any>;
  /**
   * Resolves `Ref`, `Fn::GetAtt` and the pseudo parameters as far as they are known (the local API,
   * deployed values, the template): `values.known`.
   */
  readonly environment: IntrinsicEnvironment;
  /** The resolver of the stack's template values, with stand-ins for text (stack-environment.ts). */
  readonly values: LocalValues;
  /** What the app has that is not served locally (printed at start); readers add to it. */
  readonly warnings: string[];
  /** The resources of one CloudFormation type, as `[logical id, resource]`, in template order. */
  ofType(type: string): Array<[string, any]>;
  /** Registers the template's function to be run locally (read once); returns its key. */
  registerFunction(logicalId: string): string;
}
