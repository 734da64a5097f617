// Synth time of the example backend (every construct, every section of vendor_outputs.json) vs
// the same app with addOutput and claim switched off: what the outputs add to a real backend
// (conversion, merge, stack outputs, Metadata, validation, the file). Medians of interleaved runs.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { interleaved, synthExample } = require('./example');
const { median } = require('./stats');

const RUNS = Number(process.env.BENCH_CONSTRUCTS_RUNS ?? 21);

exports.run = async function run(report) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'constructs-bench-'));
  try {
    synthExample(path.join(tmp, 'warm-a'));
    synthExample(path.join(tmp, 'warm-b'), { outputs: false });
    const [withOutputs, withoutOutputs] = interleaved(RUNS,
      (i) => synthExample(path.join(tmp, `a${i}`)),
      (i) => synthExample(path.join(tmp, `b${i}`), { outputs: false }));
    report({
      name: `example backend synth: all outputs vs addOutput off (median of ${RUNS})`,
      value: median(withOutputs),
      baseline: median(withoutOutputs),
      unit: ' ms',
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
};
