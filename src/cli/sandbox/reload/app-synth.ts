/**
 * How the sandbox synthesizes: in the warm synth process when the app command is one it runs
 * (app-command.ts), else, or once that process fails, cold (synth-runner.ts, a new process per
 * synth, as the CDK CLI). The switch to cold is said once. Counts the synths, so that the change
 * lines show how many ran.
 */
import * as fs from 'fs';
import { readAppCommand } from './app-command';
import { BUILD_LOG_VARIABLE, readColdSynthLog } from './build-record';
import { WarmSynth, WarmSynthResult } from './warm-synth';
import { entryFileIn } from '../../local/common/entry-file';
import { runSynth, SynthRequest, SynthResult } from '../synth-runner';

/** A synth's result; what the warm process recorded when it ran it. */
export type AppSynthResult = SynthResult & Partial<Pick<WarmSynthResult, 'builds' | 'copies' | 'appModules' | 'rss'>> & {
  /** Whether the warm process ran it. */
  readonly warm: boolean;
};

export class AppSynth {
  static start(command: string, root: string, env: NodeJS.ProcessEnv, note: (line: string) => void): AppSynth {
    const reading = readAppCommand(command, root);
    const warm = reading.warm ? WarmSynth.start(reading.app, root, env) : undefined;
    const synth = new AppSynth(command, warm, note);
    if (!reading.warm) {
      synth.goCold(reading.reason);
    }
    return synth;
  }

  /** Synths run so far (the first included). */
  public count = 0;
  private saidCold = false;

  private constructor(private readonly command: string, private warm: WarmSynth | undefined, private readonly note: (line: string) => void) {}

  /** The warm process's id, while it is used. */
  get warmPid(): number | undefined {
    return this.warm?.pid;
  }

  async run(request: SynthRequest): Promise<AppSynthResult> {
    this.count += 1;
    if (this.warm !== undefined) {
      const result = await this.warm.run(request);
      if (result !== undefined) {
        return { ...result, warm: true };
      }
      if (request.signal?.aborted) {
        return { ok: false, exit: 'signal SIGTERM', output: '', ms: 0, warm: false };
      }
      this.goCold(this.warm.unusable ?? 'the warm synth process failed');
    }
    return this.runCold(request);
  }

  /**
   * A cold synth, its node processes preloading cold-synth-recorder.ts (NODE_OPTIONS), so that
   * the functions' builds and the app's modules are known as after a warm synth.
   */
  private async runCold(request: SynthRequest): Promise<AppSynthResult> {
    const log = `${request.outdir}.builds.jsonl`;
    const recorder = entryFileIn(__dirname, 'cold-synth-recorder');
    const nodeOptions = [request.env.NODE_OPTIONS, `--require ${JSON.stringify(recorder)}`].filter((o) => o !== undefined && o !== '').join(' ');
    const env = { ...request.env, NODE_OPTIONS: nodeOptions, [BUILD_LOG_VARIABLE]: log };
    try {
      const result = await runSynth({ ...request, env });
      const records = result.ok ? readColdSynthLog(log) : { builds: [], appModules: [] };
      return { ...result, ...records, copies: [], warm: false };
    } finally {
      fs.rmSync(log, { force: true });
    }
  }

  close(): void {
    this.warm?.close();
  }

  private goCold(reason: string): void {
    this.warm?.close();
    this.warm = undefined;
    if (!this.saidCold) {
      this.saidCold = true;
      this.note(`Synthesizing cold ('${this.command}' in a new process at each synth): ${reason}.`);
    }
  }
}
