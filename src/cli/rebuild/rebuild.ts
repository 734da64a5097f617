/**
 * The rebuild service: vendor_outputs.json as the deployed stack defines it, rebuilt and
 * validated, for `generate` (which writes it), `diff` (which compares it) and `sandbox` (which
 * takes the values a local synth cannot know from it). Loads no aws-cdk-lib; an online rebuild
 * loads the AWS SDK when it calls AWS.
 */
import { rebuildOffline } from './offline';
import { rebuildOnline } from './online';
import { Rebuilt, StackLocation } from './rebuild-request';

/** Offline from the outputs file when `location` names one, else online through CloudFormation. */
export async function rebuild(location: StackLocation): Promise<Rebuilt> {
  return location.outputsFile !== undefined ? rebuildOffline(location, location.outputsFile) : rebuildOnline(location);
}
