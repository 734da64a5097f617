#!/usr/bin/env node
// Synthesizes the example backend (examples/backend/app.ts) into examples/backend/cdk.out and
// prints where its vendor_outputs.json was written. Used by `npx projen demo`.
// Usage: node scripts/synth-example.js [OUTDIR]
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const outdir = path.resolve(process.argv[2] ?? process.env.CDK_OUTDIR ?? path.join(root, 'examples', 'backend', 'cdk.out'));
const asset = path.join(root, 'assets', 'constructs', 'rest-items-api.lambda', 'index.js');

if (!fs.existsSync(asset)) {
  // The default REST function is bundled by projen's pre-compile step; bundle it when missing.
  const bundle = spawnSync('npx', ['projen', 'bundle'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (bundle.status !== 0) {
    console.error('synth-example: bundling the REST function failed; run `npx projen bundle`');
    process.exit(1);
  }
}

const env = {
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  CDK_DISABLE_CLI_TELEMETRY: 'true',
  ...process.env,
  CDK_OUTDIR: outdir,
};
const started = Date.now();
const result = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(root, 'examples', 'backend', 'app.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
if (result.status !== 0) {
  console.error(`synth-example: synthesis failed (exit ${result.status ?? result.signal})`);
  process.exit(1);
}

const files = fs.readdirSync(outdir).filter((f) => f.endsWith('.vendor_outputs.json'));
if (files.length === 0) {
  console.error(`synth-example: no *.vendor_outputs.json in ${outdir}`);
  process.exit(1);
}
for (const file of files) {
  console.log(`wrote ${path.relative(process.cwd(), path.join(outdir, file))}`);
}
console.log(`cloud assembly: ${path.relative(process.cwd(), outdir) || '.'} (${Date.now() - started} ms)`);
