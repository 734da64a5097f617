/**
 * Runs the marker substitution of aws-cdk-lib's own BucketDeployment handler (the Python code
 * the custom resource runs at deploy, from the installed aws-cdk-lib) on a file, so a test sees
 * what the deployment writes. Only boto3, which the substitution does not use, is replaced by an
 * empty stand-in so the module can load without AWS.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

/** How the installed handler substitutes: `escape` (releases with markers config) or `parse` (2.189: parses JSON and writes it again). */
export type SubstitutionMode = 'escape' | 'parse';

/** The runner: test/support/replace-markers.py (also used by scripts/consumer-test.js). */
const RUNNER = path.join(__dirname, 'replace-markers.py');

/** The handler of the aws-cdk-lib that `require` finds from `from`. */
export function handlerPath(from = __dirname): string {
  const lib = path.dirname(require.resolve('aws-cdk-lib/package.json', { paths: [from] }));
  return path.join(lib, 'custom-resource-handlers', 'dist', 'aws-s3-deployment', 'bucket-deployment-handler', 'index.py');
}

/**
 * Substitutes `markers` (marker → deployed value) in `file`, in place, as the deployed handler
 * does, with the source's markers config (`SourceMarkersConfig` entry, `{}` when absent).
 */
export function substituteMarkers(
  file: string, markers: Record<string, string>, config: Record<string, unknown> = {}, handler = handlerPath(),
): SubstitutionMode {
  const stringConfig = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)]));
  const mode = execFileSync('python3', [RUNNER, handler, file, JSON.stringify(markers), JSON.stringify(stringConfig)], { encoding: 'utf8' }).trim();
  return mode as SubstitutionMode;
}
