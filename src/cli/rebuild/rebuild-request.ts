/**
 * The contract of the rebuild service: which deployed stack to rebuild vendor_outputs.json from,
 * and what a rebuild gives back. `generate`, `diff` and `sandbox` fill the first and read the
 * second; the modules that locate the stack and rebuild the document import only this.
 */
import { CarriedDocument } from '../../outputs/cdk-free/carriage';
import { ClientConfigFormat } from '../outputs-format/client-config-format';

/** Which deployed stack to read, and how to reach it. */
export interface StackLocation {
  readonly stack?: string;
  readonly appId?: string;
  readonly branch?: string;
  /** Set in offline mode: the JSON of `cdk deploy --outputs-file`. */
  readonly outputsFile?: string;
  /** The cloud assembly an offline rebuild reads the template from. */
  readonly app: string;
  readonly region?: string;
  readonly profile?: string;
  /**
   * Offline with no stack named: the app id and branch of a hosted build's environment, used only
   * to choose among several stacks that carry vendor outputs.
   */
  readonly environmentIdentity?: EnvironmentIdentity;
}

/** An app id and branch found in the environment; `description` names the variables. */
export interface EnvironmentIdentity {
  readonly appId: string;
  readonly branch: string;
  readonly description: string;
}

/** What the arguments of `generate` (and `diff`, which takes the same ones) ask for, once checked. */
export interface RebuildRequest extends StackLocation {
  readonly outDir: string;
  /** `--format`: the client configuration's file and content (json when absent). */
  readonly format?: ClientConfigFormat;
  /** Lines for stderr about how the request was completed (for example from the environment). */
  readonly notices?: readonly string[];
}

/** The result of a rebuild, before anything is written. */
export interface Rebuilt {
  readonly where: string;
  readonly carried: CarriedDocument;
  readonly document: Record<string, unknown>;
  readonly warnings: string[];
  /** How the stack was chosen, when that is worth saying (offline, by the environment's identity). */
  readonly notices?: readonly string[];
}
