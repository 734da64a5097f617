/**
 * The names of the files this library writes, defined once for the library and the CLI.
 * Free of aws-cdk-lib: the CLI imports it without loading the CDK.
 */

/** The client configuration file that frontends read and `vendor-outputs generate` writes. */
export const OUTPUTS_FILE_NAME = 'vendor_outputs.json';

/** The synth-time copy of a stack's document in the cloud assembly: `<artifact id>.vendor_outputs.json`. */
export function assemblyOutputsFileName(artifactId: string): string {
  return `${artifactId}.${OUTPUTS_FILE_NAME}`;
}
