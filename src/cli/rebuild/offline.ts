/**
 * An offline rebuild (no AWS call): the stack's template from the cloud assembly, its outputs from
 * the JSON that `cdk deploy --outputs-file` wrote, the stack chosen by name, by identity tags, or
 * as the only one that carries vendor outputs.
 */
import { selectByIdentity, taggedWith } from './identity';
import { DeployOutputs, readOutputsFile } from './outputs-file';
import { Rebuilt, StackLocation } from './rebuild-request';
import { carriedFromMetadata, rebuildAndValidate } from './rebuilt-document';
import { hasCarriedDocument, METADATA_KEY } from '../../outputs/cdk-free/carriage';
import { AssemblyStack, readCloudAssembly, readTemplate } from '../assembly/cloud-assembly';
import { CliError } from '../command';

/** Offline: the stack's template from the assembly, its outputs from the outputs file. */
export function rebuildOffline(location: StackLocation, outputsFile: string): Rebuilt {
  const outputs = readOutputsFile(outputsFile);
  const stacks = readCloudAssembly(location.app).stacks;
  if (stacks.length === 0) {
    throw new CliError(`${location.app} has no stacks (manifest.json lists no aws:cloudformation:stack artifact)`);
  }
  const { stack, notice } = selectAssemblyStack(location, stacks, outputs);
  const where = `stack ${stack.stackName}`;
  const carried = carriedFromMetadata(readTemplate(stack).Metadata, where);
  const stackOutputs = Object.hasOwn(outputs, stack.stackName) ? outputs[stack.stackName] : undefined;
  if (stackOutputs === undefined && carried.pending.length > 0) {
    const listed = Object.keys(outputs);
    throw new CliError(`${outputsFile} has no outputs for ${where} (it has: ${listed.length > 0 ? listed.join(', ') : 'none'}), `
      + `which carries ${carried.pending.length} deploy-time value(s) (${carried.pending.map((e) => e.pointer).join(', ')}); `
      + `deploy it with 'cdk deploy ${stack.stackName} --outputs-file ${outputsFile}'`);
  }
  const document = rebuildAndValidate(carried, stackOutputs ?? {}, where);
  return { where, carried, document, warnings: [], notices: notice ? [notice] : [] };
}

/** The stack an offline run rebuilds, and how it was chosen when that is worth a notice. */
interface AssemblyChoice {
  readonly stack: AssemblyStack;
  readonly notice?: string;
}

function selectAssemblyStack(location: StackLocation, stacks: readonly AssemblyStack[], outputs: DeployOutputs): AssemblyChoice {
  const names = (list: readonly AssemblyStack[]) => list.map((s) => s.stackName).join(', ');
  const { stack: wanted, appId, branch } = location;
  if (wanted !== undefined) {
    const found = stacks.find((s) => s.stackName === wanted) ?? stacks.find((s) => s.artifactId === wanted || s.displayName === wanted);
    if (found === undefined) {
      throw new CliError(`stack ${wanted} not found in ${location.app}; its stacks: ${names(stacks)}`);
    }
    return { stack: found };
  }
  if (appId !== undefined && branch !== undefined) {
    return { stack: selectByIdentity(stacks, appId, branch, `in ${location.app}`) };
  }
  const carrying = stacks.filter((s) => hasCarriedDocument(readTemplate(s).Metadata));
  if (carrying.length === 0) {
    throw new CliError(`no stack in ${location.app} was synthesized with cdk-vendor-outputs (no '${METADATA_KEY}' template Metadata); its stacks: ${names(stacks)}`);
  }
  if (carrying.length === 1) {
    return { stack: carrying[0] };
  }
  const deployed = carrying.filter((s) => Object.hasOwn(outputs, s.stackName));
  if (deployed.length === 1) {
    return { stack: deployed[0] };
  }
  const candidates = deployed.length > 1 ? deployed : carrying;
  const hosted = location.environmentIdentity;
  const tagged = hosted ? taggedWith(candidates, hosted.appId, hosted.branch) : [];
  if (hosted && tagged.length === 1) {
    return { stack: tagged[0], notice: `chose stack ${tagged[0].stackName} of ${candidates.length} by ${hosted.description}` };
  }
  const why = hosted ? ` (${tagged.length === 0 ? 'none' : tagged.length} of them tagged with ${hosted.description})` : '';
  throw new CliError(`several stacks in ${location.app} carry vendor outputs: ${names(candidates)}; pick one with --stack NAME${why}`);
}
