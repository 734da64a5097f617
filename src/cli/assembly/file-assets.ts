/**
 * Where the files of a cloud assembly's file assets are: the asset manifests map each
 * destination object key (what a template's `S3Key` names) to a source path in the assembly.
 */
import * as path from 'path';
import { CloudAssembly } from './cloud-assembly';
import { isJsonObject, readJsonFile } from './json-file';

/** S3 object key → absolute path of the asset's source (a folder or a file). */
export function readFileAssets(assembly: CloudAssembly): Map<string, string> {
  const objectKeys = new Map<string, string>();
  for (const manifestFile of assembly.assetManifests) {
    const manifest = readJsonFile(manifestFile);
    const files = isJsonObject(manifest) && isJsonObject(manifest.files) ? manifest.files : {};
    for (const file of Object.values(files)) {
      if (!isJsonObject(file) || !isJsonObject(file.source) || typeof file.source.path !== 'string') {
        continue;
      }
      const source = path.resolve(path.dirname(manifestFile), file.source.path);
      for (const destination of Object.values(isJsonObject(file.destinations) ? file.destinations : {})) {
        if (isJsonObject(destination) && typeof destination.objectKey === 'string') {
          objectKeys.set(destination.objectKey, source);
        }
      }
    }
  }
  return objectKeys;
}
