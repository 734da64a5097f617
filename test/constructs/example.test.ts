import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Aspects } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildExampleApp, EXAMPLE_STACK_NAME } from '../../examples/backend/app';
import { validateDocument } from '../../src/outputs/cdk-free/validation';

/** Replaces content hashes of assets (64 hex digits) so snapshots survive code changes. */
function stripAssetHashes<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/[0-9a-f]{64}/g, '<asset-hash>'));
}

describe('example backend', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'example-backend-'));
  const { app, stack } = buildExampleApp(outdir);
  Aspects.of(app).add(new AwsSolutionsChecks());
  const assembly = app.synth();
  const outputsFile = path.join(assembly.directory, `${EXAMPLE_STACK_NAME}.vendor_outputs.json`);

  test('cdk-nag AwsSolutions: no error (every suppression is justified in examples/backend)', () => {
    const errors = Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
    expect(errors.map((e) => `${e.id}: ${String(e.entry.data).split('\n')[0]}`)).toEqual([]);
  });

  test('the example vendor_outputs.json is valid and matches the snapshot', () => {
    const document = JSON.parse(fs.readFileSync(outputsFile, 'utf8'));
    expect(validateDocument(document)).toEqual([]);
    expect(Object.keys(document)).toEqual(['$schema', 'version', 'analytics', 'auth', 'data', 'geo', 'notifications', 'storage', 'custom']);
    expect(document).toMatchSnapshot();
  });

  test('the whole template matches the snapshot (asset hashes stripped)', () => {
    const template = assembly.getStackByName(stack.stackName).template;
    expect(stripAssetHashes(template)).toMatchSnapshot();
  });
});
