// The example backend (examples/backend/app.ts, every construct, every section), loaded from its
// TypeScript sources like `scripts/synth-example.js` does, with switches that turn parts of the
// library off in this process only, so a benchmark compares the same stack with and without them.
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');

function ensureAssets() {
  if (!fs.existsSync(path.join(ROOT, 'assets', 'constructs', 'rest-items-api.lambda', 'index.js'))) {
    throw new Error('the REST function is not bundled: run `npx projen bundle` (npm run bench does)');
  }
}

let loaded;
function load() {
  if (!loaded) {
    ensureAssets();
    require('ts-node').register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });
    loaded = {
      buildExampleApp: require(path.join(ROOT, 'examples', 'backend', 'app.ts')).buildExampleApp,
      VendorOutputs: require(path.join(ROOT, 'src', 'outputs', 'vendor-outputs')).VendorOutputs,
      VendorOutputsWriter: require(path.join(ROOT, 'src', 'outputs', 'writer')).VendorOutputsWriter,
    };
  }
  return loaded;
}

/** Replaces `proto[name]` with a no-op while `fn` runs. */
function without(proto, names, fn) {
  const saved = names.map((name) => proto[name]);
  names.forEach((name) => { proto[name] = () => undefined; });
  try {
    return fn();
  } finally {
    names.forEach((name, i) => { proto[name] = saved[i]; });
  }
}

/**
 * Builds and synthesizes the example into `outdir`; returns the milliseconds it took.
 * `outputs: false` makes addOutput, claim and reserve no-ops (no collector, stack outputs, Metadata or
 * file); `writer: false` keeps them but switches the writer aspect off.
 */
function synthExample(outdir, { outputs = true, writer = true } = {}) {
  const { buildExampleApp, VendorOutputs, VendorOutputsWriter } = load();
  const run = () => {
    const started = process.hrtime.bigint();
    buildExampleApp(outdir).app.synth();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const withWriter = () => (writer ? run() : without(VendorOutputsWriter.prototype, ['visit'], run));
  return outputs ? withWriter() : without(VendorOutputs.prototype, ['addOutput', 'claim', 'reserve'], withWriter);
}

/** Interleaved runs of two variants (alternating which goes first); returns both sample lists. */
function interleaved(runs, a, b) {
  const as = [];
  const bs = [];
  for (let i = 0; i < runs; i++) {
    for (const first of i % 2 === 0 ? [true, false] : [false, true]) {
      (first ? as : bs).push(first ? a(i) : b(i));
    }
  }
  return [as, bs];
}

module.exports = { synthExample, interleaved };
