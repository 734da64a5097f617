/**
 * Helpers for the local REST API tests: synthesize a real cloud assembly with aws-cdk-lib into a
 * temporary directory, start the local server on free ports, run real curl.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Environment, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { readLocalApp } from '../../../src/cli/local/read-local-app';
import { LocalApiServer, ServerOptions } from '../../../src/cli/local/server/server';
import { compiledCli } from '../../support/compiled';

export const FIXTURES = path.join(__dirname, 'fixtures');

/** Synthesizes one stack built by `build` into a fresh temporary directory; returns the directory. */
export function synth(build: (stack: Stack) => void, options: { stackName?: string; env?: Environment } = {}): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-local-test-'));
  const app = new App({ outdir });
  const stack = new Stack(app, options.stackName ?? 'LocalTest', { env: options.env });
  build(stack);
  app.synth();
  return outdir;
}

/** A Node.js 20 function of `stack` whose `index.handler` is `source`, inline in the template. */
export function inlineFunction(stack: Stack, id: string, source: string): lambda.Function {
  return new lambda.Function(stack, id, { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(source) });
}

/** A running in-process server and what it printed. */
export interface Running {
  readonly server: LocalApiServer;
  readonly lines: string[];
  /** `http://127.0.0.1:PORT/<first stage>/` of the first API. */
  readonly url: string;
  close(): Promise<void>;
}

export async function serve(assemblyDir: string, options: Partial<ServerOptions> = {}): Promise<Running> {
  const app = readLocalApp(assemblyDir);
  const lines: string[] = [];
  const server = await LocalApiServer.start(app, { port: 0, print: (line) => lines.push(line), ...options });
  return { server, lines, url: server.endpoints[0].urls[0], close: () => server.close() };
}

export interface CurlResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real curl binary. */
export function curl(args: string[]): Promise<CurlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['--silent', '--show-error', '--max-time', '20', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Status, headers (lowercase names) and body of `curl -i` output. */
export function parseCurlResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const head = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(head[0].split(' ')[1]), headers, body: text.slice(split + 4) };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TRACE_ID = /^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/;
export const APIGW_ID = /^[A-Za-z0-9_-]{15}=$/;

/** A `vendor-outputs` child process of the compiled CLI (as test/support/cli.ts runs it). */
export interface CliProcess {
  readonly child: import('child_process').ChildProcess;
  /** Resolves with the exit code (or signal) when the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout contains `text`; rejects after `ms`. */
  waitFor(text: string | RegExp, ms?: number): Promise<string>;
}

/** Starts `vendor-outputs ARGS...` on `node` (default: this process's Node.js). */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, node = process.execPath): CliProcess {
  const root = path.join(__dirname, '..', '..', '..');
  const child = spawn(node, [compiledCli(), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (d) => { out += d; waiters.forEach((w) => w()); });
  child.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(text, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const matches = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${text}; stdout:\n${out}\nstderr:\n${err}`)), ms);
        const check = () => {
          if (matches()) {
            clearTimeout(timer);
            resolve(out);
          }
        };
        waiters.push(check);
        void exited.then(() => {
          if (!matches()) {
            clearTimeout(timer);
            reject(new Error(`process exited before ${text}; stdout:\n${out}\nstderr:\n${err}`));
          }
        });
        check();
      });
    },
  };
}
