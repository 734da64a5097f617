/**
 * `CUSTOM` authorization by a Lambda authorizer (TOKEN or REQUEST): the identity sources are read
 * (missing: 401 without calling the function), the function runs in the same workers as
 * integrations, and the policy it returns is evaluated against the method ARN. Results are cached
 * per identity source values for the authorizer's TTL.
 */
import { AuthorizerCache, AuthorizerResult } from './authorizer-cache';
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { requestId as newRequestId } from '../../common/ids';
import { javaFullMatch } from '../../common/linear-regex';
import { ownGet } from '../../common/own-record';
import type { InvokeOutcome } from '../../lambda/invoke-outcome';
import type { LambdaAuthorizerSpec } from '../../model/rest-api';
import { buildEvent } from '../event';
import { evaluatePolicy } from './policy';
import { eventInputOf } from '../integrations/lambda-proxy';
import { mask, maskedEvent } from '../pipeline/execution-log';
import {
  AUTHORIZER_CONFIGURATION_ERROR, EXPLICIT_DENY, GatewayError, IMPLICIT_DENY, isGatewayError, UNAUTHORIZED,
} from '../pipeline/gateway-errors';
import type { GatewaySettings, RoutedRequest } from '../pipeline/request';

/** One cache per gateway (one API). */
const caches = new WeakMap<GatewaySettings, AuthorizerCache>();

export async function authorizeLambda(routed: RoutedRequest, authorizer: LambdaAuthorizerSpec): Promise<GatewayError | undefined> {
  const { settings, ids, log } = routed;
  log?.add(`Starting authorizer: ${authorizer.logicalId} for request: ${ids.requestId}`);
  const identity = identityValues(routed, authorizer);
  if (identity === undefined) {
    return refuse(routed, authorizer, 'the identity source is missing or empty');
  }
  log?.add(`Incoming identity: ${authorizer.type === 'TOKEN' ? mask(identity[0]) : javaList(identity.map(mask))}`);
  if (authorizer.validationExpression !== undefined && !javaFullMatch(authorizer.validationExpression, identity[0])) {
    return refuse(routed, authorizer, `the token does not match the identity validation expression ${authorizer.validationExpression}`);
  }
  let cache = caches.get(settings);
  if (cache === undefined) {
    cache = new AuthorizerCache();
    caches.set(settings, cache);
  }
  let result = cache.get(authorizer.logicalId, identity);
  if (result !== undefined) {
    log?.add(`Using cached authorizer policy for principal: ${result.principalId}`);
  } else {
    const answered = await callAuthorizer(routed, authorizer, identity);
    if (isGatewayError(answered)) {
      return answered;
    }
    result = answered;
    cache.set(authorizer.logicalId, identity, identity.length === 0 ? 0 : authorizer.ttlSeconds, result);
  }
  const methodArn = methodArnOf(routed);
  const decision = evaluatePolicy(result.policyDocument, methodArn);
  switch (decision.decision) {
    case 'allow':
      log?.add(`Using valid authorizer policy for principal: ${result.principalId}`);
      log?.add('Successfully completed authorizer execution');
      routed.authorizer = { ...result.context, principalId: result.principalId };
      routed.usageIdentifierKey = result.usageIdentifierKey;
      return undefined;
    case 'explicit-deny':
      log?.add(`The client is not authorized to perform this operation: the policy of principal ${result.principalId} denies ${methodArn}`);
      settings.note?.(ids.requestId, `authorizer ${authorizer.name}: the policy of ${result.principalId} explicitly denies ${methodArn}`);
      return EXPLICIT_DENY;
    case 'implicit-deny':
      log?.add(`The client is not authorized to perform this operation: no statement of the policy of principal ${result.principalId} allows ${methodArn}`);
      settings.note?.(ids.requestId, `authorizer ${authorizer.name}: no statement of the policy of ${result.principalId} allows ${methodArn}`);
      return IMPLICIT_DENY;
    default:
      return misconfigured(routed, authorizer, `Invalid policy document: ${decision.reason}`);
  }
}

/** The identity source values in order; undefined when one is missing or empty. */
function identityValues(routed: RoutedRequest, authorizer: LambdaAuthorizerSpec): string[] | undefined {
  const values: string[] = [];
  for (const source of authorizer.identitySources) {
    const value = identitySourceValue(routed, source);
    if (value === undefined || value.trim() === '') {
      return undefined;
    }
    values.push(value);
  }
  // A REQUEST authorizer without caching may name no source: it is called for every request.
  return values.length === 0 && authorizer.type === 'TOKEN' ? undefined : values;
}

function identitySourceValue(routed: RoutedRequest, source: string): string | undefined {
  const header = /^method\.request\.header\.(.+)$/.exec(source);
  if (header) {
    return routed.headers.get(header[1]);
  }
  const query = /^method\.request\.querystring\.(.+)$/.exec(source);
  if (query) {
    return ownGet(routed.query.single, query[1]);
  }
  const stageVariable = /^stageVariables\.(.+)$/.exec(source);
  if (stageVariable) {
    const variables = ownGet(routed.settings.api.stageVariables, routed.stage);
    return variables === undefined ? undefined : ownGet(variables, stageVariable[1]);
  }
  const context = /^context\.(.+)$/.exec(source);
  if (context) {
    return contextValue(routed, context[1]);
  }
  return undefined;
}

/** The `$context` variables an identity source can name. */
function contextValue(routed: RoutedRequest, name: string): string | undefined {
  switch (name) {
    case 'httpMethod': return routed.request.method.toUpperCase();
    case 'path': return `/${routed.stage}${routed.pathBelowStage}`;
    case 'resourcePath': return routed.route.resource.path;
    case 'resourceId': return routed.route.resource.resourceId;
    case 'stage': return routed.stage;
    case 'requestId': return routed.ids.requestId;
    case 'extendedRequestId': return routed.ids.apigwId;
    case 'apiId': return routed.settings.api.apiId;
    case 'accountId': return '123456789012';
    case 'identity.sourceIp': return routed.request.sourceIp;
    case 'identity.userAgent': return routed.headers.get('user-agent');
    default: return undefined;
  }
}

/** `arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{METHOD}/{path}`. */
function methodArnOf(routed: RoutedRequest): string {
  const { api } = routed.settings;
  return `arn:aws:execute-api:${api.region}:123456789012:${api.apiId}/${routed.stage}/${routed.request.method.toUpperCase()}/${routed.segments.join('/')}`;
}

/** The event of each authorizer type. */
function authorizerEvent(routed: RoutedRequest, authorizer: LambdaAuthorizerSpec, identity: readonly string[]): Record<string, unknown> {
  const methodArn = methodArnOf(routed);
  if (authorizer.type === 'TOKEN') {
    return { type: 'TOKEN', methodArn, authorizationToken: identity[0] };
  }
  const proxy = buildEvent(eventInputOf(routed));
  return {
    type: 'REQUEST',
    methodArn,
    resource: proxy.resource,
    path: proxy.path,
    httpMethod: proxy.httpMethod,
    headers: proxy.headers,
    multiValueHeaders: proxy.multiValueHeaders,
    queryStringParameters: proxy.queryStringParameters,
    multiValueQueryStringParameters: proxy.multiValueQueryStringParameters,
    pathParameters: proxy.pathParameters,
    stageVariables: proxy.stageVariables,
    requestContext: proxy.requestContext,
  };
}

/** Runs the authorizer function; its result, or the error to answer. */
async function callAuthorizer(
  routed: RoutedRequest, authorizer: LambdaAuthorizerSpec, identity: readonly string[],
): Promise<AuthorizerResult | GatewayError> {
  const { settings, log } = routed;
  const fn = settings.functions.get(authorizer.functionKey)!;
  const event = authorizerEvent(routed, authorizer, identity);
  const uri = `https://lambda.${fn.region}.amazonaws.com/2015-03-31/functions/arn:aws:lambda:${fn.region}:123456789012:function:${fn.functionName}/invocations`;
  log?.add(`Endpoint request URI: ${uri}`);
  // Secrets stay masked in the log: the token, and the secret headers of a REQUEST event.
  const shown = authorizer.type === 'TOKEN' ? { ...event, authorizationToken: mask(identity[0]) } : event;
  log?.add(`Endpoint request body after transformations: ${maskedEvent(shown)}`);
  log?.add(`Sending request to ${uri}`);
  const lambdaRequestId = newRequestId();
  const started = Date.now();
  const outcome = await settings.invoker.invoke(fn.key, event, { awsRequestId: lambdaRequestId });
  if (outcome.kind === 'rejected') {
    log?.add(`Lambda invocation failed with status: ${outcome.statusCode}. Lambda request id: ${lambdaRequestId}`);
    return misconfigured(routed, authorizer, `${outcome.errorType}: ${outcome.errorMessage}`);
  }
  log?.add(`Received response. Status: 200, Integration latency: ${Date.now() - started} ms`);
  log?.add(`Execution log for Lambda request id: ${lambdaRequestId}`);
  if (outcome.kind === 'error' && outcome.errorMessage === 'Unauthorized') {
    log?.add(`Endpoint response body before transformations: ${JSON.stringify({ errorType: outcome.errorType, errorMessage: outcome.errorMessage })}`);
    return refuse(routed, authorizer, 'the authorizer answered Unauthorized');
  }
  if (outcome.kind !== 'ok') {
    return misconfigured(routed, authorizer, `Authorizer error (${failureOf(outcome)})`);
  }
  log?.add(`Endpoint response body before transformations: ${outcome.payload ?? 'null'}`);
  log?.add(`Authorizer result body before parsing: ${outcome.payload ?? 'null'}`);
  const parsed = parseResult(outcome.payload);
  return typeof parsed === 'string' ? misconfigured(routed, authorizer, `Invalid JSON in response: ${parsed}`) : parsed;
}

/** The authorizer's answer, or why it is malformed. */
function parseResult(payload: string | undefined): AuthorizerResult | string {
  let value: unknown;
  try {
    value = JSON.parse(payload ?? 'null');
  } catch {
    return 'the result is not JSON';
  }
  if (!isPlainObject(value)) {
    return 'the result is not an object';
  }
  const { principalId, policyDocument, context, usageIdentifierKey } = value;
  if (typeof principalId !== 'string') {
    return 'principalId is missing or not a string';
  }
  if (policyDocument === undefined || policyDocument === null) {
    return 'policyDocument is missing';
  }
  const kept: Record<string, string | number | boolean> = {};
  if (context !== undefined && context !== null) {
    if (!isPlainObject(context)) {
      return 'context is not an object';
    }
    for (const [key, v] of Object.entries(context)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        return `context value ${key} is not a string, number or boolean`;
      }
      Object.defineProperty(kept, key, { value: v, enumerable: true, writable: true, configurable: true });
    }
  }
  return {
    principalId,
    policyDocument,
    context: kept,
    usageIdentifierKey: typeof usageIdentifierKey === 'string' ? usageIdentifierKey : undefined,
  };
}

/** 401: the request carries no usable identity, or the authorizer said `Unauthorized`. */
function refuse(routed: RoutedRequest, authorizer: LambdaAuthorizerSpec, why: string): GatewayError {
  routed.log?.add(`Unauthorized request: ${routed.ids.requestId}`);
  routed.settings.note?.(routed.ids.requestId, `authorizer ${authorizer.name}: 401, ${why}`);
  return UNAUTHORIZED;
}

/** 500: the authorizer failed or answered something the gateway cannot use. */
function misconfigured(routed: RoutedRequest, authorizer: LambdaAuthorizerSpec, why: string): GatewayError {
  routed.log?.add(`Execution failed due to configuration error: ${why}`);
  routed.log?.add('Unable to complete authorizer execution');
  routed.settings.note?.(routed.ids.requestId, `authorizer ${authorizer.name}: 500, ${why}`);
  return AUTHORIZER_CONFIGURATION_ERROR;
}

function failureOf(outcome: InvokeOutcome): string {
  switch (outcome.kind) {
    case 'error': return `${outcome.errorType}: ${outcome.errorMessage}`;
    case 'crash': return `Runtime.ExitError: ${outcome.errorMessage}`;
    case 'timeout': return `Task timed out after ${outcome.seconds.toFixed(2)} seconds`;
    case 'unsupported': return `cannot run locally: ${outcome.reason}`;
    default: return 'unknown failure';
  }
}

function javaList(values: readonly string[]): string {
  return `[${values.join(', ')}]`;
}
