// Synth of a stack whose data section carries the model introspection of a 200-model schema
// (compiled lib/): generated at synth by ModelIntrospection.fromSchemaFile, with the generation
// cache off (the Amplify generator loaded and run in the synth process) and on (the schema did not
// change since the last synth), vs the same document passed ready-made (ModelIntrospection.fromDocument). Each synth is its own `node app.js` process, as `cdk synth`
// runs it; medians of interleaved runs. Also the template's size with the introspection carried
// compressed (as written) and as it would be uncompressed.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { median } = require('./stats');

const ROOT = path.join(__dirname, '..');
const RUNS = Number(process.env.BENCH_INTROSPECTION_RUNS ?? 7);
const MODELS = 200;

function appSource(schemaFile, documentFile) {
  return [
    "const fs = require('fs');",
    "const { App, Stack } = require('aws-cdk-lib');",
    "const appsync = require('aws-cdk-lib/aws-appsync');",
    `const { DataOutputsProducer, ModelIntrospection } = require(${JSON.stringify(path.join(ROOT, 'lib'))});`,
    'const app = new App({ outdir: process.env.CDK_OUTDIR });',
    "const stack = new Stack(app, 'Models', { env: { region: 'eu-west-1' } });",
    "const cfnApi = new appsync.CfnGraphQLApi(stack, 'Api', { name: 'models', authenticationType: 'AMAZON_COGNITO_USER_POOLS' });",
    "const modelIntrospection = process.env.INTROSPECTION === 'generate'",
    `  ? ModelIntrospection.fromSchemaFile(${JSON.stringify(schemaFile)})`,
    `  : ModelIntrospection.fromDocument(JSON.parse(fs.readFileSync(${JSON.stringify(documentFile)}, 'utf8')));`,
    "new DataOutputsProducer(stack, 'Data', { cfnApi, modelIntrospection });",
    'app.synth();',
    '',
  ].join('\n');
}

function synthMs(dir, mode, outdir, cache = 'on') {
  const start = process.hrtime.bigint();
  const env = { ...process.env, CDK_OUTDIR: outdir, INTROSPECTION: mode, VENDOR_OUTPUTS_INTROSPECTION_CACHE: cache };
  const result = spawnSync(process.execPath, ['app.js'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`synth (${mode}) failed with exit ${result.status}`);
  }
  return ms;
}

exports.run = async function run(report) {
  require('ts-node').register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });
  const { modelsSchema } = require(path.join(ROOT, 'test', 'support', 'amplify-schema.ts'));
  const { ModelIntrospection } = require(path.join(ROOT, 'lib'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'introspection-bench-'));
  try {
    const schemaFile = path.join(dir, 'schema.graphql');
    const documentFile = path.join(dir, 'model-introspection.json');
    fs.writeFileSync(schemaFile, modelsSchema(MODELS));
    fs.writeFileSync(documentFile, JSON.stringify(ModelIntrospection.fromSchemaFile(schemaFile).document));
    fs.writeFileSync(path.join(dir, 'app.js'), appSource(schemaFile, documentFile));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));

    const cold = [];
    const cached = [];
    const given = [];
    for (let i = 0; i < RUNS; i++) {
      cold.push(synthMs(dir, 'generate', path.join(dir, `g${i}`), 'off'));
      cached.push(synthMs(dir, 'generate', path.join(dir, `c${i}`)));
      given.push(synthMs(dir, 'document', path.join(dir, `d${i}`)));
    }
    report({
      name: `${MODELS}-model stack synth: introspection generated vs given (median of ${RUNS})`,
      value: median(cold),
      baseline: median(given),
      unit: ' ms',
    });
    report({
      name: `${MODELS}-model stack synth: generated, unchanged schema (cache) vs given`,
      value: median(cached),
      baseline: median(given),
      unit: ' ms',
    });

    const templateFile = path.join(dir, 'g0', 'Models.template.json');
    const template = JSON.parse(fs.readFileSync(templateFile, 'utf8'));
    const carried = template.Metadata['cdk-vendor-outputs/v1'];
    const document = JSON.parse(zlib.gunzipSync(Buffer.from(carried.documentGzip, 'base64')).toString('utf8'));
    const uncompressed = { ...template, Metadata: { ...template.Metadata, 'cdk-vendor-outputs/v1': { document, pending: carried.pending } } };
    report({
      name: `${MODELS}-model template bytes: carried compressed vs uncompressed`,
      value: fs.statSync(templateFile).size,
      baseline: Buffer.byteLength(JSON.stringify(uncompressed, undefined, 1)),
      unit: ' B',
      target: 1,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
