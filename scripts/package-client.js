#!/usr/bin/env node
// Packs cdk-vendor-outputs-client, the frontend helper as a package of its own: src/client built
// as CommonJS and as an ES module (esbuild), its declarations (TypeScript), and packages/client's
// package.json (with the library's version) and README. A frontend installs it without the
// construct library's peers (aws-cdk-lib, constructs). The tarball goes to dist/client/ (dist/js/ holds the library's alone: see .projenrc.ts).
// Usage: node scripts/package-client.js
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const esbuild = require('esbuild');
const ts = require('typescript');

const root = path.join(__dirname, '..');
const entry = path.join(root, 'src', 'client', 'index.ts');
const destination = path.join(root, 'dist', 'client');

function build(staging, format, outfile) {
  esbuild.buildSync({
    entryPoints: [entry],
    outfile: path.join(staging, outfile),
    format,
    platform: 'neutral',
    target: 'es2020',
    bundle: true,
    logLevel: 'error',
  });
}

/** index.d.ts from the source; the same declarations serve the ES module (index.d.mts). */
function declarations(staging) {
  let text;
  const program = ts.createProgram([entry], {
    declaration: true,
    emitDeclarationOnly: true,
    strict: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    lib: ['lib.es2020.d.ts'],
    types: [],
  });
  const result = program.emit(undefined, (fileName, data) => {
    if (fileName.endsWith('.d.ts')) {
      text = data;
    }
  });
  const problems = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (problems.length > 0 || text === undefined) {
    throw new Error(`declarations of src/client: ${ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' })}`);
  }
  fs.writeFileSync(path.join(staging, 'index.d.ts'), text);
  fs.writeFileSync(path.join(staging, 'index.d.mts'), text);
}

/** Writes the package's files into `staging` (an existing, empty folder). */
function stage(staging) {
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'packages', 'client', 'package.json'), 'utf8'));
  build(staging, 'cjs', 'index.js');
  build(staging, 'esm', 'index.mjs');
  declarations(staging);
  fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ ...manifest, version }, null, 2) + '\n');
  fs.copyFileSync(path.join(root, 'packages', 'client', 'README.md'), path.join(staging, 'README.md'));
  fs.copyFileSync(path.join(root, 'LICENSE'), path.join(staging, 'LICENSE'));
}

function main() {
  // Staged outside the repository: a second package.json inside it would confuse jest's module map.
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-vendor-outputs-client-'));
  try {
    fs.mkdirSync(destination, { recursive: true });
    stage(staging);
    const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: staging, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const [packed] = JSON.parse(output);
    console.log(`packed ${path.relative(root, path.join(destination, packed.filename))}: ${packed.size} bytes, ${packed.unpackedSize} unpacked, ${packed.entryCount} files`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

module.exports = { stage };

if (require.main === module) {
  main();
}
