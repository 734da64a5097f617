/**
 * Preloaded (`NODE_OPTIONS=--require`) into the node processes of a cold synth, so that a sandbox
 * whose app command the warm synth does not run still learns the functions' builds: each process
 * records the esbuild bundling commands it runs (bundling-recorder.ts) and, as it exits, appends
 * them and the app modules it loaded to the file `VENDOR_OUTPUTS_BUILD_LOG` names, one JSON line
 * per process. Nothing else changes in the process.
 */
import * as fs from 'fs';
import { BUILD_LOG_VARIABLE, BuildRecord, ColdSynthRecords } from './build-record';
import { loadedAppModules, recordBundling } from './bundling-recorder';

function install(log: string): void {
  const builds: BuildRecord[] = [];
  const ownFiles = new Set(Object.keys(require.cache));
  recordBundling(builds);
  process.on('exit', () => {
    const line: ColdSynthRecords = { builds, appModules: loadedAppModules(ownFiles) };
    if (line.builds.length > 0 || line.appModules.length > 0) {
      try {
        fs.appendFileSync(log, `${JSON.stringify(line)}\n`);
      } catch {
        // The sandbox then knows nothing of this process's builds: its changes are synthesized.
      }
    }
  });
}

const log = process.env[BUILD_LOG_VARIABLE];
if (log !== undefined && log !== '') {
  install(log);
}
