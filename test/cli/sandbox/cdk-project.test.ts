import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CliError, UsageError } from '../../../src/cli/command';
import { readCdkProject } from '../../../src/cli/sandbox/cdk-project';

let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-cdk-project-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);

describe('reading cdk.json', () => {
  test('app, output, context over cdk.context.json, and watch with the exclusions cdk watch adds', () => {
    write('cdk.json', JSON.stringify({
      app: 'node bin/app.js',
      output: 'build/out',
      context: { shared: 'from cdk.json', only: 1 },
      watch: { include: 'lib', exclude: ['test'] },
    }));
    write('cdk.context.json', JSON.stringify({ shared: 'from cdk.context.json', saved: true }));
    const project = readCdkProject(dir, undefined);
    expect(project.root).toBe(dir);
    expect(project.app).toEqual({ kind: 'command', command: 'node bin/app.js' });
    expect(project.output).toBe(path.join(dir, 'build', 'out'));
    expect(project.context).toEqual({ shared: 'from cdk.json', only: 1, saved: true });
    expect(project.watch.include).toEqual(['lib']);
    expect(project.watch.exclude).toEqual(['test', '**/.*', '**/.*/**', 'build/out/**', 'build/out', '**/node_modules/**', '**/node_modules']);
  });

  test('defaults: cdk.out, every file watched, no context', () => {
    write('cdk.json', '{"app": "node app.js"}');
    const project = readCdkProject(dir, undefined);
    expect(project.output).toBe(path.join(dir, 'cdk.out'));
    expect(project.watch.include).toEqual(['**']);
    expect(project.context).toEqual({});
  });

  test('--app overrides cdk.json: a command, or a directory holding a cloud assembly', () => {
    write('cdk.json', '{"app": "node app.js"}');
    expect(readCdkProject(dir, 'npx ts-node app.ts').app).toEqual({ kind: 'command', command: 'npx ts-node app.ts' });
    fs.mkdirSync(path.join(dir, 'asm'));
    write('asm/manifest.json', '{}');
    expect(readCdkProject(dir, 'asm').app).toEqual({ kind: 'assembly', dir: path.join(dir, 'asm') });
  });

  test('--app works without cdk.json', () => {
    expect(readCdkProject(dir, 'node app.js').app).toEqual({ kind: 'command', command: 'node app.js' });
  });

  test('no cdk.json and no --app: a usage error saying what to do', () => {
    expect(() => readCdkProject(dir, undefined)).toThrow(UsageError);
    expect(() => readCdkProject(dir, undefined)).toThrow(`no cdk.json in ${dir}: run sandbox in the folder of your CDK app (where cdk.json is), or say what to run with --app 'node app.js' (a command) or --app cdk.out (a synthesized cloud assembly)`);
  });

  test('a directory without manifest.json is not an assembly', () => {
    fs.mkdirSync(path.join(dir, 'empty'));
    expect(() => readCdkProject(dir, 'empty')).toThrow('--app empty is a directory without manifest.json: pass a synthesized cloud assembly (e.g. cdk.out) or a command');
  });

  test('cdk.json without app', () => {
    write('cdk.json', '{"output": "out"}');
    expect(() => readCdkProject(dir, undefined)).toThrow(UsageError);
    expect(() => readCdkProject(dir, undefined)).toThrow(/cdk\.json has no "app" \(the command that runs your CDK app/);
  });

  test('bad JSON names the file, line and column', () => {
    write('cdk.json', '{\n  "app": "node app.js",\n}\n');
    expect(() => readCdkProject(dir, undefined)).toThrow(CliError);
    expect(() => readCdkProject(dir, undefined)).toThrow(`${path.join(dir, 'cdk.json')}:3:1: not valid JSON: a comma before '}': JSON allows no trailing comma`);
  });

  test('bad JSON in cdk.context.json too', () => {
    write('cdk.json', '{"app": "node app.js"}');
    write('cdk.context.json', '{"a": tru}');
    expect(() => readCdkProject(dir, undefined)).toThrow(`${path.join(dir, 'cdk.context.json')}:1:7: not valid JSON: expected a value`);
  });

  test.each([
    ['[1]', 'must hold a JSON object ({ ... }), not a list'],
    ['{"app": 3}', '"app" must be a string (got 3)'],
    ['{"app": "x", "output": false}', '"output" must be a string (got false)'],
    ['{"app": "x", "context": []}', '"context" must be an object (got [])'],
    ['{"app": "x", "watch": {"include": [1]}}', '"watch.include" must be a string or a list of strings (got [1])'],
    ['{"app": "x", "watch": {"exclude": {}}}', '"watch.exclude" must be a string or a list of strings (got {})'],
  ])('cdk.json %s: %s', (text, message) => {
    write('cdk.json', text);
    expect(() => readCdkProject(dir, undefined)).toThrow(`${path.join(dir, 'cdk.json')}: ${message}`);
  });
});
