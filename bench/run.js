#!/usr/bin/env node
// Runs every bench/*.bench.js in name order. Each exports `run(report)`; `report(name, value,
// baseline, unit, target)` prints one line with the ratio against a baseline measured in the same run.
const fs = require('fs');
const path = require('path');

const rows = [];
function report({ name, value, baseline, unit, target, higherIsBetter = false }) {
  const ratio = baseline ? value / baseline : undefined;
  const ok = target === undefined ? '' : (higherIsBetter ? ratio >= target : (ratio ?? value) <= target) ? 'ok  ' : 'MISS';
  const line = `${ok.padEnd(4)} ${name.padEnd(58)} ${fmt(value)}${unit ?? ''}`
    + (baseline ? ` vs ${fmt(baseline)}${unit ?? ''}  ratio ${ratio.toFixed(3)}` : '')
    + (target !== undefined ? `  (target ${higherIsBetter ? '>=' : '<='} ${target})` : '');
  rows.push(line);
  console.log(line);
}
function fmt(n) {
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}

async function main() {
  const only = process.argv[2];
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.bench.js') && (!only || f.includes(only))).sort();
  for (const file of files) {
    console.log(`\n# ${file}`);
    await require(path.join(__dirname, file)).run(report);
  }
  console.log(`\n${rows.length} measurements`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
