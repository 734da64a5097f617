// Outputs core: synth overhead of the writer, validation speed, CLI start-up.
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { interleaved, synthExample } = require('./example');
const { median, timeMs } = require('./stats');

const ROOT = path.join(__dirname, '..');


/** A small backend: a bucket, a function and a REST API; with or without vendor outputs. */
function synthSmallStack(withOutputs, outdir) {
  const cdk = require('aws-cdk-lib');
  const s3 = require('aws-cdk-lib/aws-s3');
  const lambda = require('aws-cdk-lib/aws-lambda');
  const apigw = require('aws-cdk-lib/aws-apigateway');
  const { VendorOutputs } = require(path.join(ROOT, 'lib'));
  const app = new cdk.App({ outdir });
  const stack = new cdk.Stack(app, 'Bench', { env: { region: 'eu-west-1' } });
  const bucket = new s3.Bucket(stack, 'Bucket');
  const fn = new lambda.Function(stack, 'Fn', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: "[]" });'),
  });
  const api = new apigw.LambdaRestApi(stack, 'Api', { handler: fn });
  if (withOutputs) {
    VendorOutputs.of(stack).addOutput({
      storage: { vendorRegion: stack.region, bucketName: bucket.bucketName },
      custom: { api_id: api.restApiId, api_endpoint: api.url, api_name: 'items' },
    });
    VendorOutputs.of(stack).addOutput({ notifications: { vendorRegion: stack.region, vendorMessagingAppId: 'app', channels: ['SMS', 'EMAIL'] } });
  }
  app.synth();
}

function cliStart(args) {
  const samples = [];
  for (let i = 0; i < 15; i++) {
    samples.push(timeMs(() => {
      try {
        execFileSync(process.execPath, args, { stdio: 'ignore' });
      } catch {
        // validate exits 1 for an invalid file; the timing is what counts here
      }
    }));
  }
  return median(samples);
}

exports.run = async function run(report) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-'));
  try {
    // Warm up module loading, then alternate the two variants.
    // CLI start first, before the synth loops fill this process's heap and the page cache.
    const file = path.join(outdir, 'vendor_outputs.json');
    fs.writeFileSync(file, JSON.stringify({ version: '1', storage: { vendor_region: 'r', bucket_name: 'b' } }));
    const cli = cliStart([path.join(ROOT, 'lib', 'cli', 'main.js'), 'validate', file]);
    const nodeStart = cliStart(['-e', '0']);
    report({ name: "'vendor-outputs validate' start vs 'node -e 0' (median)", value: cli, baseline: nodeStart, unit: ' ms', target: 2 });

    // The example backend (every construct, every section) with the writer aspect, vs the same
    // stack with the writer switched off: what validating and writing the file adds to a synth.
    synthExample(path.join(outdir, 'warm-a'));
    synthExample(path.join(outdir, 'warm-b'), { writer: false });
    const [withWriter, withoutWriter] = interleaved(21,
      (i) => synthExample(path.join(outdir, `a${i}`)),
      (i) => synthExample(path.join(outdir, `b${i}`), { writer: false }));
    report({ name: 'example backend synth: with the writer vs writer off (median of 21)', value: median(withWriter), baseline: median(withoutWriter), unit: ' ms', target: 1.05 });

    // A small stack (bucket, function, REST API): the whole library (addOutput, outputs,
    // Metadata, writer) vs the same stack without it. The fixed cost of about 1 ms weighs more here.
    synthSmallStack(true, path.join(outdir, 'small-warm-a'));
    synthSmallStack(false, path.join(outdir, 'small-warm-b'));
    const [small, bare] = interleaved(41,
      (i) => timeMs(() => synthSmallStack(true, path.join(outdir, `small-a${i}`))),
      (i) => timeMs(() => synthSmallStack(false, path.join(outdir, `small-b${i}`))));
    report({ name: 'small stack synth: with the library vs without (median of 41)', value: median(small), baseline: median(bare), unit: ' ms' });

    // A 5 MB document: large model_introspection.
    const models = {};
    for (let i = 0; i % 100 !== 0 || JSON.stringify(models).length < 5 * 1024 * 1024; i++) {
      models[`Model${i}`] = { name: `Model${i}`, fields: Object.fromEntries(Array.from({ length: 20 }, (_, f) => [`field${f}`, { name: `field${f}`, type: 'String', isRequired: f % 2 === 0, attributes: [] }])) };
    }
    const text = JSON.stringify({
      version: '1',
      data: { vendor_region: 'eu-west-1', url: 'https://x/graphql', default_authorization_type: 'API_KEY', authorization_types: ['API_KEY'], model_introspection: { version: 1, models } },
    });
    const { validateDocument } = require(path.join(ROOT, 'lib', 'outputs', 'cdk-free', 'validation'));
    const parseOnly = [];
    const parseAndValidate = [];
    for (let i = 0; i < 15; i++) {
      parseOnly.push(timeMs(() => JSON.parse(text)));
      parseAndValidate.push(timeMs(() => {
        if (validateDocument(JSON.parse(text)).length > 0) throw new Error('bench document is invalid');
      }));
    }
    report({ name: `validate a ${(text.length / 1048576).toFixed(1)} MB document vs JSON.parse alone (median)`, value: median(parseAndValidate), baseline: median(parseOnly), unit: ' ms', target: 1.5 });

  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
};
