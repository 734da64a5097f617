/**
 * Context lookups the app asked for and did not get. The CDK CLI answers them from the AWS account
 * (VPC ids, AMIs, hosted zones...) and synthesizes again; offline there is no account, so the app
 * synthesized with placeholder values. The manifest's `missing` list says which.
 */
import * as path from 'path';
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../outputs/cdk-free/json-file';

interface MissingEntry {
  readonly key?: unknown;
  readonly provider?: unknown;
}

/** One line per missing lookup (`provider: key`); none when the manifest lists none or cannot be read. */
export function missingContext(assemblyDir: string): string[] {
  let manifest: unknown;
  try {
    manifest = readJsonFile(path.join(assemblyDir, 'manifest.json'));
  } catch {
    return [];
  }
  const missing = isPlainObject(manifest) ? manifest.missing : undefined;
  if (!Array.isArray(missing)) {
    return [];
  }
  return (missing as MissingEntry[]).map((m) => `${String(m.provider)}: ${String(m.key)}`);
}

/** The warning for them, or undefined. */
export function missingContextWarning(assemblyDir: string): string | undefined {
  const missing = missingContext(assemblyDir);
  if (missing.length === 0) {
    return undefined;
  }
  return `the app asked for ${missing.length} context lookup(s) that need an AWS account (${missing.join('; ')}); `
    + 'it was synthesized with placeholder values. Run `cdk synth` once with credentials to save them in cdk.context.json, which the sandbox reads';
}
