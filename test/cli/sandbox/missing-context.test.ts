import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { missingContext, missingContextWarning } from '../../../src/cli/sandbox/missing-context';

let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-missing-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the lookups the manifest lists as missing, and the warning that says what to do', () => {
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({
    version: '36.0.0',
    artifacts: {},
    missing: [
      { key: 'vpc-provider:account=123456789012:filter.isDefault=true:region=us-east-1', provider: 'vpc-provider', props: {} },
      { key: 'ami:account=123456789012:region=us-east-1', provider: 'ami', props: {} },
    ],
  }));
  expect(missingContext(dir)).toEqual([
    'vpc-provider: vpc-provider:account=123456789012:filter.isDefault=true:region=us-east-1',
    'ami: ami:account=123456789012:region=us-east-1',
  ]);
  expect(missingContextWarning(dir)).toBe('the app asked for 2 context lookup(s) that need an AWS account '
    + '(vpc-provider: vpc-provider:account=123456789012:filter.isDefault=true:region=us-east-1; ami: ami:account=123456789012:region=us-east-1); '
    + 'it was synthesized with placeholder values. Run `cdk synth` once with credentials to save them in cdk.context.json, which the sandbox reads');
});

test('none missing, or no manifest: no warning', () => {
  expect(missingContextWarning(dir)).toBeUndefined();
  fs.writeFileSync(path.join(dir, 'manifest.json'), '{"version": "36.0.0", "artifacts": {}}');
  expect(missingContext(dir)).toEqual([]);
  expect(missingContextWarning(dir)).toBeUndefined();
});
