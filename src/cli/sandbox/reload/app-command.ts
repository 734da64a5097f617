/**
 * Which `cdk.json` app commands the warm synth can run in its own process: the ones `cdk init`
 * writes (`npx tsx bin/app.ts`, `npx ts-node --prefer-ts-exts bin/app.ts`) and `node <file>`.
 * Anything else (a script, another runner, extra flags) is synthesized cold, as the CDK CLI does.
 */
import * as fs from 'fs';
import * as path from 'path';
import { shellWords } from './esbuild-command';
import type { WarmAppEntry } from './warm-synth-protocol';

export type AppCommandReading =
  | { readonly warm: true; readonly app: WarmAppEntry }
  | { readonly warm: false; readonly reason: string };

const KNOWN = 'npx tsx FILE, npx ts-node --prefer-ts-exts FILE, node FILE';

export function readAppCommand(command: string, root: string): AppCommandReading {
  const words = shellWords(command);
  const unknown = { warm: false as const, reason: `the app command '${command}' is not one the warm synth runs (${KNOWN})` };
  if (words === undefined) {
    return unknown;
  }
  const [runner, ...rest] = words[0] === 'npx' ? words.slice(1) : words;
  const flags = rest.slice(0, -1);
  const entryArg = rest[rest.length - 1];
  const known = (runner === 'tsx' && flags.length === 0)
    || (runner === 'ts-node' && flags.every((flag) => flag === '--prefer-ts-exts'))
    || (runner === 'node' && flags.length === 0 && words[0] !== 'npx');
  if (!known || entryArg === undefined || entryArg.startsWith('-')) {
    return unknown;
  }
  const entry = path.resolve(root, entryArg);
  if (!fs.existsSync(entry) || !fs.statSync(entry).isFile()) {
    return { warm: false, reason: `the app's entry ${entry} (from '${command}') is not a file` };
  }
  return { warm: true, app: { runner: runner as WarmAppEntry['runner'], entry } };
}
