#!/usr/bin/env node
// Finds import loops among the TypeScript files of a folder, type-only imports included (the lint
// rule import/no-cycle skips those, but a loop through a contract type is still a loop: the type
// belongs below both of its users). Prints each loop and exits 1 when there is one.
// Usage: node scripts/import-loops.js [dir]   (default: src)
const fs = require('fs');
const path = require('path');
const ts = require('typescript');

function* typeScriptFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      yield* typeScriptFiles(full);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

/** The relative module specifiers of a file's imports, exports, `require()` and `import()` calls. */
function relativeSpecifiers(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])
      && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

function resolveModule(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
}

/** file -> the files it imports. */
function importGraph(dir) {
  const graph = new Map();
  for (const file of typeScriptFiles(dir)) {
    const targets = relativeSpecifiers(file).map((specifier) => resolveModule(file, specifier)).filter(Boolean);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan), each sorted. */
function importLoops(dir) {
  const graph = importGraph(dir);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const loops = [];
  let counter = 0;
  const connect = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file), index.get(next)));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfImport = (graph.get(file) ?? []).includes(file);
      if (component.length > 1 || selfImport) {
        loops.push(component.map((f) => path.relative(dir, f)).sort());
      }
    }
  };
  for (const file of graph.keys()) {
    if (!index.has(file)) {
      connect(file);
    }
  }
  return loops;
}

module.exports = { importLoops };

if (require.main === module) {
  const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'src'));
  const loops = importLoops(dir);
  for (const loop of loops) {
    console.log(`import loop: ${loop.join(' <-> ')}`);
  }
  console.log(loops.length === 0 ? `no import loop under ${path.relative(process.cwd(), dir) || '.'}` : `${loops.length} import loop(s)`);
  process.exitCode = loops.length === 0 ? 0 : 1;
}
