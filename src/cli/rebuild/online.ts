/**
 * An online rebuild: the deployed stack through CloudFormation (by name, or by identity tags among
 * the region's root stacks), checked for a readable state, its template Metadata and outputs.
 */
import { CloudFormationReader, DeployedStack } from './cloudformation';
import { selectByIdentity } from './identity';
import { Rebuilt, StackLocation } from './rebuild-request';
import { carriedFromMetadata, rebuildAndValidate } from './rebuilt-document';
import { checkStackStatus } from './stack-status';
import { UsageError } from '../command';

/** Online: the deployed stack through CloudFormation. */
export async function rebuildOnline(location: StackLocation): Promise<Rebuilt> {
  const reader = new CloudFormationReader({ region: location.region, profile: location.profile });
  const { stack: wanted, appId, branch } = location;
  let stack: DeployedStack;
  if (wanted !== undefined) {
    stack = await reader.describeStack(wanted);
  } else if (appId !== undefined && branch !== undefined) {
    const region = await reader.region();
    const roots = (await reader.listStacks()).filter((s) => !s.nested);
    stack = selectByIdentity(roots, appId, branch, `in region ${region}`);
  } else {
    throw new UsageError('say which stack: --stack NAME or --app-id ID --branch NAME');
  }
  const warning = checkStackStatus(stack.stackName, stack.status);
  const where = `stack ${stack.stackName}`;
  const carried = carriedFromMetadata(await reader.templateMetadata(stack), where);
  return { where, carried, document: rebuildAndValidate(carried, stack.outputs, where), warnings: warning ? [warning] : [] };
}
