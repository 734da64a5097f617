/**
 * What the local API knows about an app, read once from the cloud assembly: its stacks, the APIs
 * of every kind, and the functions they run.
 */
import type { FunctionSpec } from './function-spec';
import type { ApiSpec } from './rest-api';
import type { UnservedPart } from './unserved-part';

/** A stack of the assembly, as far as the local tools need it. */
export interface StackSpec {
  readonly artifactId: string;
  readonly stackName: string;
  /** The construct path the CDK CLI shows (`Stage/Stack`). */
  readonly displayName?: string;
  readonly region: string;
  /** Absolute path of the template file. */
  readonly templateFile: string;
  readonly template: Record<string, any>;
}

/** Everything read from the cloud assembly. */
export interface LocalApp {
  readonly assemblyDir: string;
  readonly stacks: readonly StackSpec[];
  readonly apis: readonly ApiSpec[];
  readonly functions: ReadonlyMap<string, FunctionSpec>;
  /** Things the assembly has that are not served locally (printed on start). */
  readonly warnings: readonly string[];
  /** The APIs, function URLs and functions of the assembly that are not served, with why. */
  readonly unserved: readonly UnservedPart[];
}
