import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';

/** A fresh app writing into its own temporary directory (with `context`, e.g. feature flags), and one stack with a fixed region. */
export function newStack(region = 'eu-west-1', context?: Record<string, unknown>): { app: App; stack: Stack } {
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'constructs-test-')), context });
  const stack = new Stack(app, 'Backend', { env: { region } });
  return { app, stack };
}

/** Synthesizes the app and returns the stack's vendor_outputs.json, parsed. */
export function synthOutputs(app: App, stack: Stack): any {
  const assembly = app.synth();
  return JSON.parse(fs.readFileSync(path.join(assembly.directory, `${stack.artifactId}.vendor_outputs.json`), 'utf8'));
}

/** The logical id of the only resource of `type` whose properties contain `match` (or the only one). */
export function logicalIdOf(template: { toJSON(): any }, type: string, predicate: (props: any) => boolean = () => true): string {
  const found = Object.entries<any>(template.toJSON().Resources).filter(([, r]) => r.Type === type && predicate(r.Properties ?? {}));
  if (found.length !== 1) {
    throw new Error(`expected one ${type}, found ${found.length}: ${found.map(([id]) => id).join(', ')}`);
  }
  return found[0][0];
}
