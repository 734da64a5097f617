/**
 * What the server asks of an API kind (REST and HTTP APIs today; WebSocket APIs and function URLs
 * next): read its APIs from the template model, serve requests to one of them, and describe its
 * routes for the listing and the reload summary. A kind is a folder (rest/) behind this interface,
 * registered in api-kinds.ts; the server and the template reader ask the registry, never a kind.
 */
import type { IncomingMessage } from 'http';
import type { Duplex } from 'stream';
import type { TokenVerifier } from '../auth/cognito/token-verifier';
import type { SigV4Verifier } from '../auth/sigv4';
import type { Invoker } from '../lambda/invoker';
import type { FunctionSpec } from '../model/function-spec';
import type { ApiSpec } from '../model/rest-api';
import type { UnservedPart } from '../model/unserved-part';
import type { StackTemplate } from '../template/stack-template';

/** One line of the listing, in columns. */
export interface RouteRow {
  readonly method: string;
  readonly url: string;
  /** What answers: a function, MOCK, an endpoint, or `not served (why)`. */
  readonly target: string;
  /** What the gateway checks first: `NONE`, `AWS_IAM`, `CUSTOM <name>`, ..., `API key`, `validator ...`. */
  readonly checks: readonly string[];
}

/** How the listing names a function (its construct path, with notes such as a missing SDK package). */
export type FunctionLabel = (functionKey: string) => string;

/** The kinds there are (an ApiSpec without a kind is a REST API). */
export type ApiKindName = NonNullable<ApiSpec['kind']>;

/** A request as the server received it (REST's GatewayRequest is this type). */
export interface ApiRequest {
  readonly method: string;
  /** Path with query string as received (still percent-encoded), e.g. `/prod/items?limit=5`. */
  readonly target: string;
  /** Headers in the order received, names as sent. */
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  readonly sourceIp: string;
  /** Local port, for `X-Forwarded-Port`. */
  readonly port?: number;
}

/** The answer the server sends (REST's GatewayResponse has this shape). */
export interface ApiResponse {
  readonly statusCode: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Text (UTF-8) or bytes. */
  readonly body: string | Buffer;
  readonly requestId: string;
  /** Matched resource path, when one matched. */
  readonly resourcePath?: string;
  /**
   * A body sent as it comes (chunked, no Content-Length): `body` is ignored. The server writes the
   * status and headers, then hands the stream its connection.
   */
  readonly stream?: StreamedBody;
}

/** A response body that arrives in pieces (a streamed Lambda response). */
export interface StreamedBody {
  /** Starts sending: bytes go to `write` in order, then `end`; `abort` cuts the connection (the stream failed midway). */
  pipe(target: StreamTarget): void;
}

export interface StreamTarget {
  write(chunk: Buffer): void;
  end(): void;
  abort(): void;
}

/** Answers the requests of one served API. */
export interface ApiHandler {
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** An HTTP upgrade request (WebSocket APIs); a kind without it has the connection closed. */
  upgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** What the server gives a handler: the functions and who may call. */
export interface HandlerContext {
  readonly invoker: Invoker;
  readonly functions: ReadonlyMap<string, FunctionSpec>;
  /** Verifies SigV4 signatures; undefined when the server has no key pair. */
  readonly verifier?: SigV4Verifier;
  readonly allowUnsigned?: boolean;
  /** Verifies user pool tokens; undefined: every Cognito-authorized request is refused. */
  readonly tokenVerifier?: TokenVerifier;
  /** A line for the terminal about a request (why it was refused). */
  readonly note: (requestId: string, text: string) => void;
  /** A line per request the server did not answer itself (WebSocket connections and messages); undefined with `--quiet`. */
  readonly requestLine?: (line: string) => void;
}

/** A kind being served by one server: what it keeps across reloads (REST: usage plan counters). */
export interface KindServing {
  handler(api: ApiSpec, context: HandlerContext): ApiHandler;
  /** The server closes: stop what serving runs beside it (REST: template hosts), even mid-request. */
  close?(): void;
}

export interface ApiKind {
  readonly kind: ApiKindName;
  /** Largest request body the kind takes; a larger one gets `tooLarge`. */
  readonly maxBodyBytes: number;
  /**
   * The kind takes upgrade requests and has a management API its functions call over https on the
   * API's own port (WebSocket APIs): such a port also speaks TLS, and functions trust its certificate.
   */
  readonly upgradesAndTls?: boolean;
  /** This kind's APIs in one stack of the template model. */
  readApis(stack: StackTemplate): ApiSpec[];
  /** Starts serving this kind in a server (once per server, kept across reloads). */
  serving(): KindServing;
  /** The listing's rows of one stage of an API, reached at `stageUrl`. */
  routeRows(api: ApiSpec, stage: string, stageUrl: string, functionLabel: FunctionLabel, env: NodeJS.ProcessEnv): RouteRow[];
  /** `METHOD URL` of each route of one stage (what a reload summary compares). */
  routes(api: ApiSpec, stageUrl: string): string[];
  /** The answer to a request whose body is larger than `maxBodyBytes`. */
  tooLarge(requestId: string): ApiResponse;
  /**
   * The Cognito user pools the API's authorizers trust, one entry per authorizer and pool, and
   * whether a route of it is authorized by a user pool at all (then `serve` checks tokens).
   */
  userPools(api: ApiSpec): { readonly uses: boolean; readonly pools: readonly UserPoolUse[] };
  /** Parts of a served API the kind does not serve (HTTP: routes whose authorizer is not in the template, private integrations), each with why. */
  unservedParts?(api: ApiSpec): UnservedPart[];
}

/** A Cognito user pool as one authorizer of an API trusts it. */
export interface UserPoolUse {
  readonly poolId: string;
  readonly region: string;
  readonly clientIds: readonly string[];
  /** The authorizer's name (listed by `vendor-outputs token`). */
  readonly authorizer: string;
}
