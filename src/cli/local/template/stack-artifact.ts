/**
 * A stack of the cloud assembly as the template readers see it: the contract between
 * assembly.ts, which makes it, and the readers it hands it to (../rest/reader/), kept below both.
 */
import type { AssemblyStack } from '../../assembly/cloud-assembly';

/** A stack of the assembly with what the local tools add to it. */
export interface StackArtifact extends AssemblyStack {
  /** The stack's region, or `DEFAULT_REGION` (assembly.ts) when environment-agnostic. */
  readonly region: string;
  /** Logical id → construct path (without a final `/Resource`). */
  readonly constructPaths: Map<string, string>;
}
