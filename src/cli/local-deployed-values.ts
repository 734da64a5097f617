/**
 * Reads the deployed values the local API resolves template references with (`--outputs-file`,
 * `--from-stack`), before anything is read or served: the outputs file as `generate --outputs-file`
 * reads it, the deployed stack through CloudFormation as `generate --stack` reads it (DescribeStacks
 * for its outputs and id, ListStackResources for its resources' physical ids). The AWS SDK is
 * loaded only for `--from-stack`.
 */
import { DeployedSource, LocalApiSettings } from './local/local-api-settings';
import { DeployedValues, pseudoOfStackId } from './local/template/deployed-values';
import { CloudFormationReader } from './rebuild/cloudformation';
import { readOutputsFile } from './rebuild/outputs-file';

/** `settings` with its deployed values read (unchanged when it names none). */
export async function withDeployedValues(settings: LocalApiSettings): Promise<LocalApiSettings> {
  if (settings.deployedSource === undefined) {
    return settings;
  }
  return { ...settings, deployed: await readDeployedValues(settings.deployedSource) };
}

export async function readDeployedValues(source: DeployedSource): Promise<DeployedValues> {
  if (source.kind === 'outputs-file') {
    const outputs = readOutputsFile(source.file);
    return {
      source: `--outputs-file ${source.file}`,
      stacks: Object.entries(outputs).map(([stackName, values]) => ({ stackName, outputs: values, physicalIds: {}, pseudo: {} })),
    };
  }
  // The reader loads the SDK when made: a command without --from-stack never loads it.
  const reader = new CloudFormationReader({});
  const stack = await reader.describeStack(source.stack);
  const physicalIds = await reader.physicalIds(stack);
  return {
    source: `--from-stack ${source.stack}`,
    stacks: [{ stackName: stack.stackName, outputs: stack.outputs, physicalIds, pseudo: pseudoOfStackId(stack.id) }],
  };
}
