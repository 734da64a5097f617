// `vendor-outputs generate` offline (cdk deploy --outputs-file + cloud assembly) vs `node -e 0`.
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { median, timeMs } = require('./stats');

const ROOT = path.join(__dirname, '..');


/** An example backend: storage, a REST API (RestItemsApi when built), notifications, identity tags. */
function synthBackend(outdir) {
  const cdk = require('aws-cdk-lib');
  const s3 = require('aws-cdk-lib/aws-s3');
  const lib = require(path.join(ROOT, 'lib'));
  const app = new cdk.App({ outdir });
  const stack = new cdk.Stack(app, 'Backend');
  const bucket = new s3.Bucket(stack, 'Files');
  lib.VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: stack.region, bucketName: bucket.bucketName } });
  if (lib.RestItemsApi) {
    new lib.RestItemsApi(stack, 'Items', { apiName: 'items', outputsKey: 'items' });
    new lib.RestItemsApi(stack, 'Orders', { apiName: 'orders', outputsKey: 'orders' });
  }
  lib.VendorOutputs.of(stack).addOutput({ notifications: { vendorRegion: stack.region, vendorMessagingAppId: 'app', channels: ['SMS', 'EMAIL'] } });
  lib.BackendIdentity.tag(stack, { appId: 'd1bench', branch: 'main' });
  return app.synth().getStackByName('Backend').template;
}

/** What CloudFormation reports as outputs: Ref / Fn::GetAtt get made-up physical values. */
function evaluate(expression) {
  if (typeof expression === 'string') return expression;
  if (Array.isArray(expression)) return expression.map(evaluate);
  const [fn] = Object.keys(expression);
  const arg = expression[fn];
  switch (fn) {
    case 'Ref': return arg === 'AWS::Region' ? 'eu-west-1' : arg === 'AWS::URLSuffix' ? 'amazonaws.com' : `${arg.toLowerCase()}-id`;
    case 'Fn::GetAtt': return `${arg[0]}-${arg[1]}`;
    case 'Fn::Join': return evaluate(arg[1]).join(arg[0]);
    case 'Fn::Base64': return Buffer.from(evaluate(arg), 'utf8').toString('base64');
    case 'Fn::Select': return evaluate(arg[1])[Number(evaluate(arg[0]))];
    default: throw new Error(`bench cannot evaluate ${fn}`);
  }
}

function run(args) {
  const samples = [];
  for (let i = 0; i < 15; i++) {
    samples.push(timeMs(() => execFileSync(process.execPath, args, { stdio: 'ignore' })));
  }
  return median(samples);
}

exports.run = async function (report) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-generate-bench-'));
  try {
    const assembly = path.join(dir, 'cdk.out');
    const template = synthBackend(assembly);
    const outputs = Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([key, o]) => [key, evaluate(o.Value)]));
    const outputsFile = path.join(dir, 'outputs.json');
    fs.writeFileSync(outputsFile, JSON.stringify({ Backend: outputs }, null, 2));
    const args = [path.join(ROOT, 'lib', 'cli', 'main.js'), 'generate', '--outputs-file', outputsFile, '--app', assembly, '--out-dir', path.join(dir, 'out')];
    execFileSync(process.execPath, args, { stdio: 'ignore' }); // fails loudly if generate does
    const generated = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'vendor_outputs.json'), 'utf8'));
    const pending = template.Metadata['cdk-vendor-outputs/v1'].pending.length;
    const value = run(args);
    const baseline = run(['-e', '0']);
    report({
      name: `'generate' offline (${pending} values, ${Object.keys(generated).length - 2} sections) vs 'node -e 0' (median)`,
      value, baseline, unit: ' ms', target: 2,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
