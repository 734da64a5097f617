/**
 * The resolvers of every stack of a cloud assembly, made on first use, sharing the assembly's
 * exports (`Fn::ImportValue`) and the deployed values the user passed.
 */
import { DeployedValues, referencesOfStack } from './deployed-values';
import type { LocalValues } from './local-values';
import { stackEnvironment } from './stack-environment';
import { assemblyExports } from './stack-exports';
import type { StackArtifact } from './stack-template';

/** One stack of the assembly, read or not. */
export interface AssemblyStackTemplate {
  readonly artifact: StackArtifact;
  readonly template: Record<string, any>;
  /** Read (named by `--stack`, or no stack named): the one deployed stack applies to the one read stack whatever its name. */
  readonly chosen: boolean;
}

/** The resolver of each stack, by artifact id. */
export function assemblyValues(stacks: readonly AssemblyStackTemplate[], deployed: DeployedValues | undefined): (artifactId: string) => LocalValues {
  const chosenCount = stacks.filter((s) => s.chosen).length;
  const made = new Map<string, LocalValues>();
  const exports = assemblyExports(stacks.map((s) => ({ artifactId: s.artifact.artifactId, template: s.template })), (id) => valuesOf(id));
  function valuesOf(artifactId: string): LocalValues {
    let values = made.get(artifactId);
    if (values === undefined) {
      const stack = stacks.find((s) => s.artifact.artifactId === artifactId);
      if (stack === undefined) {
        throw new Error(`no stack ${artifactId} in the assembly`);
      }
      // A stack that is not read only matches a deployed stack of its own name.
      const references = referencesOfStack(deployed, { ...stack.artifact, template: stack.template }, stack.chosen ? chosenCount : Infinity);
      values = stackEnvironment(stack.artifact, stack.template, references, exports);
      made.set(artifactId, values);
    }
    return values;
  }
  return valuesOf;
}
