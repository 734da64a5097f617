/**
 * The local-API service: one way to start the server for `serve` and `sandbox` (the app prepared
 * by local-app-setup.ts, its warnings, the token verifier, the listening server, the warning for an
 * address reachable from the network, and the lines that say what is served and who gets in).
 * A sandbox reload goes through it too, so the options given at start hold for every synth.
 */
import { appTokenVerifier } from './app-user-pools';
import { signingKeyFile } from './auth/cognito/signing-key';
import type { TokenVerifier } from './auth/cognito/token-verifier';
import { LocalApiError } from './common/local-api-error';
import { LocalApiSettings } from './local-api-settings';
import { PreparedApp } from './local-app-setup';
import { LocalApp } from './model/local-app';
import { ApiSpec, isRestApi, ResourceNode } from './model/rest-api';
import { apiKeyLines } from './rest/api-key-values';
import { checkPortRange, isLoopback, LocalApiServer, ReloadSummary } from './server/server';
import { unservedApis, unservedLines } from './server/unserved-listing';

/** How a command starts the local API. */
export interface LocalApiStart {
  readonly settings: LocalApiSettings;
  /** The app to serve, read and prepared (see local-app-setup.ts). */
  readonly prepared: PreparedApp;
  /** Lines for the person at the terminal: the listing, function logs, requests (stdout). */
  readonly print: (line: string) => void;
  /** A warning, without a prefix (the command adds its own, e.g. `vendor-outputs serve: warning: `). */
  readonly warn: (message: string) => void;
  /** Refuse an app with no API to serve (`serve`); a sandbox keeps running to serve its next synth. */
  readonly requireApi?: boolean;
  /** Where the app came from, for the refusal (`cdk.out`). */
  readonly source?: string;
  /** The command's own checks of the app, after the warnings and before anything listens. */
  readonly beforeListen?: (app: LocalApp) => void;
  /** The vendor_outputs.json the command writes, shown by the console page. */
  readonly outputsFile?: string;
  /**
   * The cloud assembly folder whose local signing key Cognito-authorized methods trust (the one
   * `vendor-outputs token` signs with).
   * @default - the app's own assembly folder
   */
  readonly signingKeyDir?: string;
}

/** Starts the local API: warns, checks, listens. Throws LocalApiError when it cannot. */
export async function startLocalApi(start: LocalApiStart): Promise<LocalApi> {
  const { settings, prepared } = start;
  prepared.warnings.forEach(start.warn);
  const served = servedApis(prepared.app);
  if (start.requireApi && served.length === 0) {
    throw new LocalApiError(nothingToServe(prepared.app, start.source, settings.stacks));
  }
  checkPortRange(settings.port, served.length);
  start.beforeListen?.(prepared.app);
  const tokenVerifier = await tokenVerifierOf(prepared.app, start);
  const server = await LocalApiServer.start(prepared.app, {
    host: settings.host,
    port: settings.port,
    credentials: settings.credentials,
    allowUnsigned: settings.allowUnsigned,
    quiet: settings.quiet,
    print: start.print,
    envVars: settings.envVars,
    appFolder: prepared.runtime.appFolder,
    functionNotes: prepared.runtime.notes,
    tokenVerifier,
    outputsFile: start.outputsFile,
  });
  if (!isLoopback(settings.host)) {
    start.warn(`--host ${settings.host} is reachable from the network: other machines can call the API, and through it its functions, which run with this shell's AWS credentials and environment`);
  }
  return new LocalApi(start, server, prepared.app, tokenVerifier);
}

/** The running local API. */
export class LocalApi {
  constructor(
    private readonly start: LocalApiStart,
    public readonly server: LocalApiServer,
    private current: LocalApp,
    private tokenVerifier: TokenVerifier | undefined,
  ) {}

  /** The app served now. */
  get app(): LocalApp {
    return this.current;
  }

  /** The APIs served now (those with a stage). */
  get served(): ApiSpec[] {
    return servedApis(this.current);
  }

  /** How many APIs of each kind are served: `1 REST API(s)`, `1 REST API(s) and 2 HTTP API(s)`, `..., 1 WebSocket API(s) and 1 function URL(s)`. */
  servedSummary(): string {
    const served = this.served;
    const counts: Array<[number, string]> = [
      [served.filter(isRestApi).length, 'REST API(s)'],
      [served.filter((a) => a.kind === 'HTTP').length, 'HTTP API(s)'],
      [served.filter((a) => a.kind === 'WEBSOCKET').length, 'WebSocket API(s)'],
      [served.filter((a) => a.kind === 'FUNCTION_URL').length, 'function URL(s)'],
    ];
    const parts = counts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
    if (parts.length === 0) {
      return '0 REST API(s)';
    }
    return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  }

  /** The route listing: method, URL, what answers it and what the gateway checks first. */
  routeLines(): string[] {
    return this.server.routeTable();
  }

  /** What the app has that is not served, with why (nothing when everything is). */
  unservedLines(): string[] {
    return unservedLines(this.current.unserved);
  }

  /** Who gets in: API key values made here, the IAM key pair, the Cognito token signers. */
  accessLines(): string[] {
    const { settings } = this.start;
    const restApis = this.served.filter(isRestApi);
    const lines = apiKeyLines(restApis);
    if (restApis.some((api) => hasIam(api.root))) {
      lines.push(settings.credentials
        ? `IAM-authorized methods accept requests signed with access key ${settings.credentials.accessKeyId}${settings.allowUnsigned ? ' and unsigned requests (as a guest)' : ''}`
        : `IAM-authorized methods refuse unsigned requests${settings.allowUnsigned ? ' unless --allow-unsigned (on: guests are let in)' : '; pass --credentials KEY:SECRET to accept signed ones, --allow-unsigned to let guests in'}`);
    }
    if (this.tokenVerifier !== undefined) {
      lines.push(`Cognito-authorized methods (and HTTP API routes whose JWT issuer is a user pool of the app) accept tokens from 'vendor-outputs token' (local signing key ${signingKeyFile(this.start.signingKeyDir ?? this.current.assemblyDir)})${settings.jwks !== undefined ? ` and tokens signed by the keys of ${settings.jwks}` : ''}`);
    }
    return lines;
  }

  /** Serves a new synth of the app (prepared with the same settings) on the same ports. */
  async reload(prepared: PreparedApp): Promise<ReloadSummary> {
    const tokenVerifier = await tokenVerifierOf(prepared.app, this.start);
    const summary = await this.server.reload(prepared.app, { functionNotes: prepared.runtime.notes, tokenVerifier });
    this.current = prepared.app;
    this.tokenVerifier = tokenVerifier ?? this.tokenVerifier;
    return summary;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** The verifier of the app's Cognito methods: the local signing key of `signingKeyDir`, and `--jwks`. */
function tokenVerifierOf(app: LocalApp, start: LocalApiStart): Promise<TokenVerifier | undefined> {
  const keyApp = start.signingKeyDir === undefined ? app : { ...app, assemblyDir: start.signingKeyDir };
  return appTokenVerifier(keyApp, start.settings.jwks);
}

/** The refusal of an app with nothing to serve, naming what it has that is not served. */
function nothingToServe(app: LocalApp, source: string | undefined, stacks: readonly string[]): string {
  const message = `no REST, HTTP or WebSocket API with a stage in ${source}${stacks.length > 0 ? ` (stacks: ${stacks.join(', ')})` : ''}; nothing to serve`;
  const apis = unservedApis(app.unserved);
  return apis.length === 0 ? message : [message, ...unservedLines(apis)].join('\n');
}

/** The APIs that get a port: those with a stage. */
function servedApis(app: LocalApp): ApiSpec[] {
  return app.apis.filter((a) => a.stages.length > 0);
}

function hasIam(node: ResourceNode): boolean {
  if ([...node.methods.values()].some((m) => m.authorizationType === 'AWS_IAM')) {
    return true;
  }
  return [...node.literalChildren.values(), node.paramChild, node.greedyChild].some((c) => c !== undefined && hasIam(c));
}
