/**
 * `$context`: the request's context as mapping templates see it, with the overrides a template
 * may set (`$context.requestOverride.*` in a request template, `$context.responseOverride.*` in a
 * response template).
 */
import { requestTime } from '../../common/dates';

/** What `$context` is built from (the gateway fills it from the routed request). */
export interface ContextInput {
  readonly apiId: string;
  readonly accountId: string;
  readonly requestId: string;
  readonly extendedRequestId: string;
  readonly httpMethod: string;
  readonly resourcePath: string;
  readonly resourceId: string;
  readonly stage: string;
  /** Path with the stage (`/prod/items`). */
  readonly path: string;
  readonly requestTimeEpoch: number;
  readonly domainName: string;
  readonly sourceIp: string;
  readonly userAgent: string | null;
  /** Identity fields an authorizer established (IAM caller); null: anonymous. */
  readonly identity: Readonly<Record<string, string | null>> | null;
  /** `principalId` and the context a Lambda authorizer returned, or a Cognito authorizer's `claims`. */
  readonly authorizer?: Readonly<Record<string, unknown>>;
  readonly apiKey?: string;
  readonly apiKeyId?: string;
  /** `$context.error.*`, in a gateway response's template. */
  readonly error?: GatewayErrorContext;
  /** Variables of another API kind's `$context` (a WebSocket API's `connectionId`, `routeKey`, `eventType`, ...). */
  readonly more?: Readonly<Record<string, unknown>>;
}

/** `$context.error`: what a gateway response's template knows of the error it answers. */
export interface GatewayErrorContext {
  readonly message: string | null;
  /** The message as a quoted JSON string (`"Unauthorized"`), for `{"message":$context.error.messageString}`. */
  readonly messageString: string;
  readonly responseType: string;
  readonly validationErrorString: string;
}

/** What a template set in `$context.requestOverride` / `$context.responseOverride`. */
export interface ContextOverrides {
  readonly requestOverride: {
    readonly header: Record<string, unknown>;
    readonly querystring: Record<string, unknown>;
    readonly path: Record<string, unknown>;
  };
  readonly responseOverride: {
    status?: unknown;
    readonly header: Record<string, unknown>;
  };
}

export type ContextVariable = Record<string, unknown> & ContextOverrides;

export function contextVariable(input: ContextInput): ContextVariable {
  const identity: Record<string, string | null> = {
    accountId: null,
    apiKey: input.apiKey ?? null,
    apiKeyId: input.apiKeyId ?? null,
    caller: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp: input.sourceIp,
    user: null,
    userAgent: input.userAgent,
    userArn: null,
    ...(input.identity ?? {}),
  };
  return {
    accountId: input.accountId,
    apiId: input.apiId,
    authorizer: { ...(input.authorizer ?? {}) },
    domainName: input.domainName,
    domainPrefix: input.domainName.split('.')[0].split(':')[0],
    extendedRequestId: input.extendedRequestId,
    httpMethod: input.httpMethod,
    identity,
    path: input.path,
    protocol: 'HTTP/1.1',
    requestId: input.requestId,
    requestTime: requestTime(input.requestTimeEpoch),
    requestTimeEpoch: input.requestTimeEpoch,
    resourceId: input.resourceId,
    resourcePath: input.resourcePath,
    stage: input.stage,
    ...(input.error === undefined ? {} : { error: { ...input.error } }),
    ...input.more,
    requestOverride: { header: {}, querystring: {}, path: {} },
    responseOverride: { header: {} },
  };
}
