/**
 * Where the files of a cloud assembly's file assets are: the asset manifests map each
 * destination object key (what a template's `S3Key` names) to a source path in the assembly.
 */
import * as path from 'path';
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { failuresNaming, readJsonFile } from '../../outputs/cdk-free/json-file';
import { CliError } from '../command';
import { CloudAssembly } from './cloud-assembly';

/** S3 object key → absolute path of the asset's source (a folder or a file). */
export function readFileAssets(assembly: CloudAssembly): Map<string, string> {
  const objectKeys = new Map<string, string>();
  for (const manifestFile of assembly.assetManifests) {
    const manifest = readJsonFile(manifestFile, failuresNaming(manifestFile, CliError));
    const files = isPlainObject(manifest) && isPlainObject(manifest.files) ? manifest.files : {};
    for (const file of Object.values(files)) {
      if (!isPlainObject(file) || !isPlainObject(file.source) || typeof file.source.path !== 'string') {
        continue;
      }
      const source = path.resolve(path.dirname(manifestFile), file.source.path);
      for (const destination of Object.values(isPlainObject(file.destinations) ? file.destinations : {})) {
        if (isPlainObject(destination) && typeof destination.objectKey === 'string') {
          objectKeys.set(destination.objectKey, source);
        }
      }
    }
  }
  return objectKeys;
}
