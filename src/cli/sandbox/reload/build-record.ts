/**
 * What the warm synth process records of each bundling command an app runs while it synthesizes
 * (aws-cdk-lib's local bundling goes through `child_process.spawnSync`, e.g. `bash -c "npx
 * --no-install esbuild ... --outfile=<dir>/index.js"`): the command, its folder and environment,
 * and a digest of the file it wrote, which later tells which function's staged code it is.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import { readEsbuildCommand } from './esbuild-command';

export interface BuildRecord {
  /** The shell command (the last argument of `bash -c <command>`). */
  readonly command: string;
  /** Its working directory (absolute). */
  readonly cwd: string;
  /** The esbuild output file, absolute. */
  readonly outfile: string;
  /** sha256 of what the command wrote to `outfile`. */
  readonly outputDigest: string;
}

/** The variable naming the file a cold synth's processes append their records to (cold-synth-recorder.ts). */
export const BUILD_LOG_VARIABLE = 'VENDOR_OUTPUTS_BUILD_LOG';

/** What one process of a cold synth recorded: a line of that file. */
export interface ColdSynthRecords {
  readonly builds: readonly BuildRecord[];
  readonly appModules: readonly string[];
}

/** The records of every process of a cold synth, from its log (none when there is no log). */
export function readColdSynthLog(file: string): ColdSynthRecords {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { builds: [], appModules: [] };
  }
  const lines = text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as ColdSynthRecords];
    } catch {
      return []; // an empty line, or one a killed process left unfinished
    }
  });
  return { builds: lines.flatMap((l) => l.builds), appModules: lines.flatMap((l) => l.appModules) };
}

/**
 * A folder asset staged by copying (`Code.fromAsset(dir)`: aws-cdk-lib's AssetStaging copies the
 * folder with `FileSystem.copyDirectory`), recorded only when nothing of it was excluded.
 */
export interface AssetCopy {
  /** The asset's source folder (absolute). */
  readonly source: string;
  /** The folder it was copied to in the assembly (absolute). */
  readonly staged: string;
}

/** The exclude pattern aws-cdk-lib adds to every asset's copy (not the app's). */
const STAGING_EXCLUDE = '.is_custom_resource';

/** Whether a copy with these options copied the whole folder (no `exclude`, no ignore file rules). */
export function copiesEverything(options: { readonly exclude?: readonly string[] } | undefined): boolean {
  return (options?.exclude ?? []).every((pattern) => pattern === STAGING_EXCLUDE);
}

export function fileDigest(file: string): string | undefined {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * The shell command of a `spawnSync(file, args)` call that bundles with esbuild (`bash -c <cmd>`,
 * `sh -c <cmd>`), or undefined.
 */
export function bundlingCommandOf(file: string, args: readonly string[] | undefined): string | undefined {
  if (args === undefined || args.length !== 2 || args[0] !== '-c' || !/(^|\/)(ba)?sh$/.test(file)) {
    return undefined;
  }
  return /\besbuild\b/.test(args[1]) && args[1].includes('--outfile=') ? args[1] : undefined;
}

/** The absolute output file of a command that the esbuild reader reads, or undefined. */
export function outfileOf(command: string): string | undefined {
  return readEsbuildCommand(command)?.outfile;
}
