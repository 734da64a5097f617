#!/usr/bin/env node
// The Python package as a Python CDK user gets it: jsii-pacmak's Python target from the compiled
// library (.jsii; run `npx projen compile` first), built into a wheel, installed into a fresh
// virtual environment and imported.
//
// With PyPI reachable this is the release's own path: `jsii-pacmak --target python` (its pinned
// build tools), then `pip install <wheel>` with its dependencies (jsii, aws-cdk-lib, constructs
// for Python), an app that synthesizes a stack with RestItemsApi and VendorOutputs, and its
// vendor_outputs.json checked.
// Without PyPI (this machine: only the npm registry and Debian's packages), pacmak's build step
// cannot install its pinned tools (setuptools~=75.3.2, build~=1.5.0, twine~=7.0.0): the code is
// generated with --code-only and the wheel built by pip without build isolation from the
// setuptools already installed; the wheel is installed without its dependencies and checked
// (metadata, every module compiles); the import is NOT run, and the script says so and why.
// Usage: node scripts/python-package-check.js [--keep] [--wheel FILE] [--require-import]
//   --wheel FILE: check this wheel (the build workflow's package-python job passes the one pacmak
//   built) instead of building one.
//   --require-import: fail unless the import and the synth ran (CI, where PyPI is reachable).
// Exit: 0 when every check that could run passed (a line starting "NOT CHECKED" names what could
// not), 1 when a check failed.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const { distName, module: moduleName } = pkg.jsii.targets.python;
const keep = process.argv.includes('--keep');
const givenWheel = process.argv.includes('--wheel') ? path.resolve(process.argv[process.argv.indexOf('--wheel') + 1]) : undefined;
const notChecked = [];

function run(cwd, command, args, { allowFailure = false, env = {} } = {}) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20', PIP_DISABLE_PIP_VERSION_CHECK: '1', ...env }, maxBuffer: 64 * 1024 * 1024 });
  if (!allowFailure && result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

function log(message) {
  console.log(`[python] ${message}`);
}

/** Whether pip reaches PyPI: one attempt, short timeout (pip retries for minutes otherwise). */
function pypiReachable(work) {
  const probe = run(work, 'python3', ['-m', 'pip', 'download', '--no-deps', '--retries', '0', '--timeout', '10', '--index-url', 'https://pypi.org/simple', '--dest', path.join(work, 'probe'), 'publication'], { allowFailure: true });
  return probe.status === 0;
}

/** The first interpreter with setuptools and wheel (pyenv's python3 may lack wheel; Debian's python3-setuptools and python3-wheel provide both). */
function buildPython(work) {
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean);
  const found = candidates.find((python) => run(work, python, ['-c', 'import setuptools, wheel'], { allowFailure: true }).status === 0);
  if (found === undefined) {
    throw new Error(`none of ${candidates.join(', ')} has setuptools and wheel: apt-get install python3-setuptools python3-wheel python3-venv (or set PYTHON)`);
  }
  return found;
}

function venv(dir) {
  run(path.dirname(dir), 'python3', ['-m', 'venv', dir]);
  return path.join(dir, 'bin', 'python');
}

/** The wheel: pacmak's own build with PyPI, else its generated code built by pip without isolation. */
function buildWheel(work, online) {
  const out = path.join(work, 'dist');
  if (online) {
    run(root, 'npx', ['jsii-pacmak', '--target', 'python', '--outdir', out]);
  } else {
    run(root, 'npx', ['jsii-pacmak', '--target', 'python', '--code-only', '--outdir', out]);
    // An interpreter's own setuptools (pacmak pins 75.3.2, which only PyPI has).
    const python = buildPython(work);
    log(`building the wheel with ${python} (setuptools ${run(work, python, ['-c', 'import setuptools; print(setuptools.__version__)']).stdout.trim()})`);
    run(path.join(out, 'python'), python, ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '--no-index', '--wheel-dir', path.join(out, 'python'), '.']);
  }
  const wheel = fs.readdirSync(path.join(out, 'python')).find((name) => name.endsWith('.whl'));
  if (wheel === undefined) {
    throw new Error(`no wheel in ${path.join(out, 'python')}`);
  }
  return path.join(out, 'python', wheel);
}

const APP = `
import json, os, tempfile
from aws_cdk import App, Stack
from cdk_vendor_outputs import RestItemsApi, VendorOutputs

outdir = tempfile.mkdtemp()
app = App(outdir=outdir)
stack = Stack(app, "Backend")
RestItemsApi(stack, "ItemsApi")
VendorOutputs.of(stack).add_output(custom={"support_email": "help@example.com"})
app.synth()
with open(os.path.join(outdir, "Backend.vendor_outputs.json")) as f:
    document = json.load(f)
assert document["custom"]["support_email"] == "help@example.com", document
assert document["custom"]["api_name"] == "ItemsApi", document
print("synthesized", sorted(document))
`;

/** Installs the wheel into a fresh environment and checks it; imports it when its dependencies install. */
function installAndImport(work, wheel, online) {
  const python = venv(path.join(work, 'venv'));
  if (online) {
    run(work, python, ['-m', 'pip', 'install', '--quiet', wheel]);
    log(`import and synth: ${run(work, python, ['-c', APP]).stdout.trim()}`);
    return;
  }
  run(work, python, ['-m', 'pip', 'install', '--quiet', '--no-deps', '--no-index', wheel]);
  const metadata = JSON.parse(run(work, python, ['-c', `import importlib.metadata as m, json; d = m.distribution("${distName}"); print(json.dumps({"name": d.metadata["Name"], "version": d.version, "requires": d.requires}))`]).stdout);
  if (metadata.name !== distName || metadata.version !== pkg.version) {
    throw new Error(`installed ${metadata.name} ${metadata.version}, expected ${distName} ${pkg.version}`);
  }
  log(`installed ${metadata.name} ${metadata.version}; requires ${metadata.requires.join(', ')}`);
  // Without importing it (that needs jsii): where pip put it. jsii-pacmak makes the README the
  // module's docstring, r'''...''' unescaped, so a README with three single quotes breaks this.
  const location = run(work, python, ['-c', `import importlib.util; print(importlib.util.find_spec("${moduleName}").submodule_search_locations[0])`]).stdout.trim();
  run(work, python, ['-m', 'compileall', '-q', location]);
  log(`every module of ${moduleName} compiles`);
  const attempt = run(work, python, ['-c', `import ${moduleName}`], { allowFailure: true });
  const reason = (attempt.stderr.trim().split('\n').pop() ?? '').trim();
  if (attempt.status === 0) {
    throw new Error(`import ${moduleName} succeeded without jsii installed: the check is wrong`);
  }
  notChecked.push(`import ${moduleName} and a synth: its dependencies (jsii, aws-cdk-lib, constructs for Python) come from PyPI, which is not reachable here (${reason})`);
}

function main() {
  if (givenWheel === undefined && !fs.existsSync(path.join(root, '.jsii'))) {
    throw new Error('.jsii is missing: run npx projen compile first');
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'python-package-'));
  let ok = false;
  try {
    const python = run(work, 'python3', ['--version']).stdout.trim();
    const online = pypiReachable(work);
    log(`${python}; PyPI ${online ? 'reachable' : 'NOT reachable'}`);
    if (!online && givenWheel === undefined) {
      notChecked.push('pacmak\'s own Python build (pinned setuptools, build and twine from PyPI) and twine check: the wheel was built from pacmak\'s generated code by pip without build isolation');
    }
    const wheel = givenWheel ?? buildWheel(work, online);
    log(`${givenWheel === undefined ? 'built' : 'given'} ${path.basename(wheel)} (${fs.statSync(wheel).size} bytes)`);
    installAndImport(work, wheel, online);
    if (process.argv.includes('--require-import') && notChecked.length > 0) {
      throw new Error('--require-import: the import and the synth did not run (see NOT CHECKED)');
    }
    ok = true;
  } finally {
    for (const line of notChecked) {
      log(`NOT CHECKED: ${line}`);
    }
    log(ok ? `passed${notChecked.length > 0 ? ' (partly: see NOT CHECKED)' : ''}` : 'FAILED');
    if (keep || !ok) {
      log(`kept ${work}`);
    } else {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
}

try {
  main();
} catch (error) {
  console.error(`[python] ${error.message}`);
  process.exit(1);
}
