/**
 * What flows through the request pipeline: the request as received, the state the steps add to it,
 * and the answer.
 */
import type { ExecutionLog } from './execution-log';
import type { KeyCounters } from './key-counters';
import type { ApiRequest, ApiResponse } from '../../api-kind/api-kind';
import type { TokenVerifier } from '../../auth/cognito/token-verifier';
import type { SigV4Verifier } from '../../auth/sigv4';
import type { ParsedQuery } from '../../common/query-string';
import type { Invoker } from '../../lambda/invoker';
import type { FunctionSpec } from '../../model/function-spec';
import type { ApiKeySpec, RestApiSpec, UsagePlanSpec } from '../../model/rest-api';
import type { RouteMatch } from '../router';

/** A request as received: what the server hands every API kind. */
export type GatewayRequest = ApiRequest;

/** The answer, plus what the terminal log shows: what every API kind hands the server. */
export type GatewayResponse = ApiResponse;

/** How one API's gateway is set up (the same for every request). */
export interface GatewaySettings {
  readonly api: RestApiSpec;
  readonly invoker: Invoker;
  readonly functions: ReadonlyMap<string, FunctionSpec>;
  /** Verifies SigV4 signatures for IAM-authorized methods; undefined when the server has no key pair. */
  readonly verifier?: SigV4Verifier;
  /** Let unsigned requests reach IAM-authorized methods as a guest (an unauthenticated identity). */
  readonly allowUnsigned?: boolean;
  /** Gateway notes for the terminal (why a request was refused). */
  readonly note?: (requestId: string, text: string) => void;
  /** Usage plan counters per key, shared by the gateways of one server (a plan's limits span its APIs); default: the gateway's own. */
  readonly keyCounters?: KeyCounters;
  /** Verifies user pool tokens for `COGNITO_USER_POOLS` methods; undefined: every such request is refused. */
  readonly tokenVerifier?: TokenVerifier;
  /**
   * The console's TEST: the path has no stage, the stage is `test-invoke-stage`, authorization is
   * not checked (the console call is itself authorized) and no forwarding headers are added.
   */
  readonly testInvoke?: boolean;
  /** `test-invoke --authorize`: the TEST runs the method's authorization, as a request to a stage would. */
  readonly testInvokeAuthorize?: boolean;
}

/** The ids API Gateway gives each request. */
export interface RequestIds {
  readonly requestId: string;
  readonly apigwId: string;
  /** `X-Amzn-Trace-Id` of the response: the client's, else the gateway's own. */
  readonly traceId: string;
  /** `X-Amzn-Trace-Id` the integration receives: {@link traceId}, a client's `Parent` replaced by the gateway's segment. */
  readonly integrationTraceId: string;
}

/** A request on its way through the pipeline, before routing. */
export interface ReceivedRequest {
  readonly settings: GatewaySettings;
  readonly request: GatewayRequest;
  readonly ids: RequestIds;
  readonly receivedAt: number;
  /** Path part of the target, still percent-encoded. */
  readonly rawPath: string;
  /** Query part of the target (without `?`), still percent-encoded. */
  readonly rawQuery: string;
  readonly headers: RequestHeaders;
  /** Decoded query parameters (own keys only: names are the client's). */
  readonly query: ParsedQuery;
  /** The console's execution log, when one is kept (test-invoke). */
  readonly log?: ExecutionLog;
}

/** A request matched to a stage, resource and method. */
export interface RoutedRequest extends ReceivedRequest {
  readonly stage: string;
  /** Path below the stage, still percent-encoded (`/items/a%20b`). */
  readonly pathBelowStage: string;
  /** Decoded segments of the path below the stage. */
  readonly segments: readonly string[];
  readonly route: RouteMatch;
  /** Identity fields the authorization step established (IAM caller, guest); null: anonymous. */
  identity: Readonly<Record<string, string | null>> | null;
  /**
   * `requestContext.authorizer` an authorizer established: a Lambda authorizer's `principalId` and
   * context, or a Cognito authorizer's `claims` (every value a string).
   */
  authorizer?: AuthorizerContext;
  /** The `usageIdentifierKey` a Lambda authorizer returned (the API key when the key source is AUTHORIZER). */
  usageIdentifierKey?: string;
  /** The API key the api-key step accepted, with the usage plan that gives it this stage (for throttling and quotas). */
  apiKey?: { readonly key: ApiKeySpec; readonly plan: UsagePlanSpec };
}

/** `requestContext.authorizer` (and `$context.authorizer`): flat values, or the `claims` object of a Cognito authorizer. */
export type AuthorizerContext = Readonly<Record<string, string | number | boolean | Readonly<Record<string, string>>>>;

/** Case-insensitive header lookup over the received headers (the last value of a repeated header). */
export class RequestHeaders {
  private readonly byName = new Map<string, string[]>();

  constructor(raw: ReadonlyArray<readonly [string, string]>) {
    for (const [name, value] of raw) {
      const lower = name.toLowerCase();
      const list = this.byName.get(lower);
      if (list === undefined) {
        this.byName.set(lower, [value]);
      } else {
        list.push(value);
      }
    }
  }

  get(name: string): string | undefined {
    const list = this.byName.get(name.toLowerCase());
    return list?.[list.length - 1];
  }

  /** By lowercase name, repeated headers as arrays, without a prototype (for the SigV4 check). */
  toRecord(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = Object.create(null);
    for (const [name, values] of this.byName) {
      out[name] = values.length === 1 ? values[0] : values;
    }
    return out;
  }
}
