/**
 * The catalogue of the gateway's own answers (API Gateway "gateway responses"): every response
 * type with its status, default message and `x-amzn-ErrorType`, and each error the local gateway
 * answers, built from its type. Every step, authorizer and integration takes its errors from here
 * and every caller recognises them with {@link isGatewayError}. Rendering (with the API's
 * `AWS::ApiGateway::GatewayResponse` overrides) is render-error.ts.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html
 */

/** What a gateway response type answers when nothing overrides it. */
export interface GatewayResponseDefaults {
  readonly status: number;
  /** The `message` of the JSON body (null: the gateway sends `{"message":null}`). */
  readonly message: string | null;
  /** `x-amzn-ErrorType`, when the service sends one. */
  readonly errorType?: string;
}

/**
 * Every gateway response type of a REST API. `DEFAULT_4XX` and `DEFAULT_5XX` have no status of
 * their own (they are the fallbacks of a class): theirs here is the class's.
 */
export const GATEWAY_RESPONSE_TYPES = {
  ACCESS_DENIED: { status: 403, message: 'User is not authorized to access this resource', errorType: 'AccessDeniedException' },
  API_CONFIGURATION_ERROR: { status: 500, message: 'Internal server error', errorType: 'InternalServerErrorException' },
  AUTHORIZER_CONFIGURATION_ERROR: { status: 500, message: null, errorType: 'AuthorizerConfigurationException' },
  AUTHORIZER_FAILURE: { status: 500, message: null, errorType: 'AuthorizerFailureException' },
  BAD_REQUEST_PARAMETERS: { status: 400, message: 'Missing required request parameters', errorType: 'BadRequestException' },
  BAD_REQUEST_BODY: { status: 400, message: 'Invalid request body', errorType: 'BadRequestException' },
  DEFAULT_4XX: { status: 400, message: 'Bad Request', errorType: 'BadRequestException' },
  DEFAULT_5XX: { status: 500, message: 'Internal server error', errorType: 'InternalServerErrorException' },
  EXPIRED_TOKEN: { status: 403, message: 'The security token included in the request is expired', errorType: 'ExpiredTokenException' },
  INTEGRATION_FAILURE: { status: 504, message: 'Internal server error', errorType: 'InternalServerErrorException' },
  INTEGRATION_TIMEOUT: { status: 504, message: 'Endpoint request timed out' },
  INVALID_API_KEY: { status: 403, message: 'Forbidden', errorType: 'ForbiddenException' },
  INVALID_SIGNATURE: { status: 403, message: 'The request signature we calculated does not match the signature you provided.', errorType: 'InvalidSignatureException' },
  MISSING_AUTHENTICATION_TOKEN: { status: 403, message: 'Missing Authentication Token', errorType: 'MissingAuthenticationTokenException' },
  QUOTA_EXCEEDED: { status: 429, message: 'Limit Exceeded', errorType: 'LimitExceededException' },
  REQUEST_TOO_LARGE: { status: 413, message: 'Request Too Long' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'Not Found', errorType: 'NotFoundException' },
  THROTTLED: { status: 429, message: 'Too Many Requests', errorType: 'TooManyRequestsException' },
  UNAUTHORIZED: { status: 401, message: 'Unauthorized', errorType: 'UnauthorizedException' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Media Type', errorType: 'UnsupportedMediaTypeException' },
  WAF_FILTERED: { status: 403, message: 'Forbidden', errorType: 'ForbiddenException' },
} as const satisfies Readonly<Record<string, GatewayResponseDefaults>>;

/** A gateway response type (`MISSING_AUTHENTICATION_TOKEN`, `DEFAULT_5XX`...). */
export type GatewayResponseType = keyof typeof GATEWAY_RESPONSE_TYPES;

/** A refusal or failure the gateway answers itself. */
export interface GatewayError {
  /** Its gateway response type: the API's `AWS::ApiGateway::GatewayResponse` of that type (else of DEFAULT_4XX/5XX) applies. */
  readonly type: GatewayResponseType;
  readonly status: number;
  /** The `message` of the JSON body (null for an authorizer's failure, as the gateway sends it). */
  readonly message: string | null;
  /** The body's key when it is not `message` (a Lambda authorizer's policy denial says `Message`). */
  readonly messageKey?: 'Message';
  /** `x-amzn-ErrorType`, when the service sends one. */
  readonly errorType?: string;
  /** The body's exact bytes when they are not `{"message":...}` as JSON.stringify writes it (request validation's have a space). */
  readonly body?: string;
  /** `$context.error.validationErrorString`: the failed checks of a request validator. */
  readonly validationErrorString?: string;
  /** Answered before a stage (so a deployment) is known: the API's gateway responses do not apply. */
  readonly beforeStage?: boolean;
}

/** The error of `type`, its catalogue defaults replaced by `details`. */
export function gatewayError(type: GatewayResponseType, details: Partial<Omit<GatewayError, 'type'>> = {}): GatewayError {
  const defaults: GatewayResponseDefaults = GATEWAY_RESPONSE_TYPES[type];
  return {
    type,
    status: defaults.status,
    message: defaults.message,
    ...(defaults.errorType !== undefined ? { errorType: defaults.errorType } : {}),
    ...details,
  };
}

/** Whether a step's, an authorizer's or an integration's outcome is a gateway error (the one way they are told apart). */
export function isGatewayError(outcome: object): outcome is GatewayError {
  const type = (outcome as { type?: unknown }).type;
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(GATEWAY_RESPONSE_TYPES, type) && typeof (outcome as { status?: unknown }).status === 'number';
}

// Routing.
export const MISSING_AUTHENTICATION_TOKEN = gatewayError('MISSING_AUTHENTICATION_TOKEN');
/**
 * A path whose first segment is no stage of the API (or no segment at all): the invoke URL names
 * no deployment, so neither its resources nor its gateway responses are known. Recorded answers to
 * a missing or miscased stage are `403 {"message":"Forbidden"}`, unlike a path no resource of a
 * real stage matches (Missing Authentication Token).
 */
export const UNKNOWN_STAGE = gatewayError('DEFAULT_4XX', { status: 403, message: 'Forbidden', errorType: 'ForbiddenException', beforeStage: true });

// Authorization.
export const UNAUTHORIZED = gatewayError('UNAUTHORIZED');
/** A Lambda authorizer's policy explicitly denies the method. */
export const EXPLICIT_DENY = gatewayError('ACCESS_DENIED', { message: 'User is not authorized to access this resource with an explicit deny', messageKey: 'Message' });
/** No statement of a Lambda authorizer's policy allows the method. */
export const IMPLICIT_DENY = gatewayError('ACCESS_DENIED', { messageKey: 'Message' });
/** The authorizer failed (an error other than `Unauthorized`, a crash, a timeout, a malformed answer), or cannot run. */
export const AUTHORIZER_CONFIGURATION_ERROR = gatewayError('AUTHORIZER_CONFIGURATION_ERROR');

// API keys, throttling and quotas. Both 429s as recorded from deployed APIs: a throttled request's
// 31-byte body with TooManyRequestsException (github.com/amberelectric/public-api/issues/280), a
// used-up quota's LimitExceededException (github.com/massif-press/compcon/issues/2237); the words
// are the gateway's (knowledge center: api-gateway-429-limit).
export const INVALID_API_KEY = gatewayError('INVALID_API_KEY');
export const THROTTLED = gatewayError('THROTTLED');
export const QUOTA_EXCEEDED = gatewayError('QUOTA_EXCEEDED');

// Request validation: bodies as API Gateway sends them, space after the colon included (responses
// of deployed APIs recorded in public test suites).
export const INVALID_REQUEST_BODY = gatewayError('BAD_REQUEST_BODY', { body: '{"message": "Invalid request body"}' });

/** BAD_REQUEST_PARAMETERS for the names the request lacks, in the template's order. */
export function missingRequestParameters(names: readonly string[]): GatewayError {
  const message = `Missing required request parameters: [${names.join(', ')}]`;
  return gatewayError('BAD_REQUEST_PARAMETERS', { message, body: `{"message": ${JSON.stringify(message)}}` });
}

// Integrations.
export const API_CONFIGURATION_ERROR = gatewayError('API_CONFIGURATION_ERROR');
/** A failed or malformed integration response (Lambda error, malformed proxy response). */
export const INTEGRATION_FAILURE_502 = gatewayError('DEFAULT_5XX', { status: 502 });
/** Lambda refused the invocation (throttled, or the event too large): the function did not run. */
export const INTEGRATION_FAILURE_500 = gatewayError('DEFAULT_5XX');
/** Lambda refused an integration HTTP method other than POST; API Gateway answers it 500, not INTEGRATION_FAILURE's documented 504. */
export const INTEGRATION_FAILURE_NOT_POST = gatewayError('INTEGRATION_FAILURE', { status: 500 });
export const INTEGRATION_TIMEOUT = gatewayError('INTEGRATION_TIMEOUT');
/** The gateway's 415 when the passthrough behaviour refuses an unmapped content type. */
export const UNSUPPORTED_MEDIA_TYPE = gatewayError('UNSUPPORTED_MEDIA_TYPE');

/**
 * A mapped body that is not JSON: the gateway's 400 (it parses the integration request as JSON for
 * Lambda). Not a validator's BAD_REQUEST_BODY: the API's DEFAULT_4XX response applies.
 */
export function notJson(reason: string): GatewayError {
  return gatewayError('DEFAULT_4XX', { message: `Could not parse request body into json: ${reason}` });
}
