/**
 * Which construct created each resource of a stack: the `aws:cdk:logicalId` entries of the
 * artifact's metadata. aws-cdk-lib used to write that metadata inline in manifest.json; current
 * versions write it to the file named by the artifact's `additionalMetadataFile`. Both are read.
 */
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { failuresNaming, readJsonFile } from '../../outputs/cdk-free/json-file';
import { CliError } from '../command';
import { AssemblyStack } from './cloud-assembly';

/**
 * Logical id → construct path as the CDK CLI shows it (`Backend/Api/Resource`, no leading slash).
 * Read on demand: commands that do not show construct paths never open the metadata file.
 */
export function readConstructPaths(stack: AssemblyStack): Map<string, string> {
  const paths = new Map<string, string>();
  addLogicalIds(stack.inlineMetadata, paths);
  if (stack.metadataFile !== undefined) {
    const metadata = readJsonFile(stack.metadataFile, failuresNaming(`stack ${stack.stackName}'s metadata file ${stack.metadataFile}`, CliError));
    if (!isPlainObject(metadata)) {
      throw new CliError(`stack ${stack.stackName}'s metadata file ${stack.metadataFile} is not a JSON object`);
    }
    addLogicalIds(metadata, paths);
  }
  return paths;
}

function addLogicalIds(metadata: Readonly<Record<string, unknown>> | undefined, paths: Map<string, string>): void {
  for (const [constructPath, entries] of Object.entries(metadata ?? {})) {
    if (!Array.isArray(entries)) {
      continue;
    }
    for (const entry of entries) {
      if (isPlainObject(entry) && entry.type === 'aws:cdk:logicalId' && typeof entry.data === 'string') {
        paths.set(entry.data, constructPath.replace(/^\//, ''));
      }
    }
  }
}
