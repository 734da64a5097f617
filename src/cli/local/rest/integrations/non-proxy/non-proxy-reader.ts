/**
 * Reads a non-proxy `Integration` (`MOCK`, `AWS` to a Lambda function or another service, `HTTP`)
 * with its templates, parameters and integration responses. What cannot be served locally becomes
 * an `UNSUPPORTED` spec with a start-up warning saying why.
 */
import { stringEntries } from '../../../common/own-record';
import type { ContentHandling, IntegrationResponseSpec, IntegrationSpec, NonProxyBackend, NonProxyIntegrationSpec, PassthroughBehavior } from '../../../model/rest-api';
import { tryEvaluateString } from '../../../template/intrinsics';
import { integrationTimeoutMs } from '../../reader/integration-timeout';
import type { IntegrationReadContext } from '../integration-kind';
import { notServed } from '../unsupported-kind';

/** A Lambda invocation Uri (`arn:aws:apigateway:<region>:lambda:path/2015-03-31/functions/<arn>/invocations`). */
const LAMBDA_INVOCATION = /:lambda:path\/[^/]+\/functions\/.+\/invocations$/;

export function readNonProxyIntegration(
  context: IntegrationReadContext, type: NonProxyIntegrationSpec['type'], integration: any, methodId: string,
): IntegrationSpec {
  const backend = readBackend(context, type, integration, methodId);
  if ('unsupported' in backend) {
    context.warnings.push(`${context.stackName}/${methodId}: ${backend.unsupported}; answered 500`);
    return notServed(backend.unsupported);
  }
  if (integration?.ConnectionType === 'VPC_LINK') {
    context.warnings.push(`${context.stackName}/${methodId}: ${type} integration through a VPC link is not served locally; answered 500`);
    return notServed(`${type} integration through a VPC link`);
  }
  const spec: NonProxyIntegrationSpec = {
    type,
    backend,
    description: describe(backend, integration),
    httpMethod: typeof integration?.IntegrationHttpMethod === 'string' ? integration.IntegrationHttpMethod.toUpperCase() : undefined,
    requestTemplates: stringEntries(integration?.RequestTemplates),
    passthroughBehavior: passthroughOf(integration?.PassthroughBehavior),
    contentHandling: contentHandlingOf(integration?.ContentHandling),
    requestParameters: stringEntries(integration?.RequestParameters),
    integrationResponses: (Array.isArray(integration?.IntegrationResponses) ? integration.IntegrationResponses : []).map(readIntegrationResponse),
    timeoutMs: integrationTimeoutMs(integration?.TimeoutInMillis),
  };
  return spec;
}

function readBackend(context: IntegrationReadContext, type: string, integration: any, methodId: string): NonProxyBackend | { unsupported: string } {
  if (type === 'MOCK') {
    return { kind: 'mock' };
  }
  const uri = tryEvaluateString(integration?.Uri, context.environment);
  if (type === 'HTTP') {
    return uri === undefined ? { unsupported: 'HTTP integration whose Uri cannot be resolved locally' } : { kind: 'http', uri };
  }
  const fnId = context.functionIdOf(integration?.Uri);
  if (fnId !== undefined) {
    return { kind: 'lambda', functionKey: context.registerFunction(fnId) };
  }
  if (uri !== undefined && LAMBDA_INVOCATION.test(uri)) {
    return { unsupported: `AWS integration to a Lambda function outside the template (${methodId})` };
  }
  const service = uri === undefined ? undefined : /^arn:[^:]+:apigateway:([^:]*):([^:]+):(action|path)\//.exec(uri);
  if (uri === undefined || service === null || service === undefined) {
    return { unsupported: 'AWS integration whose Uri cannot be resolved locally' };
  }
  // `Credentials` (the role the gateway assumes) is not used: requests are signed with the environment's credentials.
  return { kind: 'aws', uri, region: service[1] || context.region };
}

function describe(backend: NonProxyBackend, integration: any): string {
  switch (backend.kind) {
    case 'mock':
      return 'MOCK';
    case 'lambda':
      return 'Lambda function (non-proxy)';
    case 'http':
      return `HTTP ${String(integration?.IntegrationHttpMethod ?? 'ANY').toUpperCase()} ${backend.uri}`;
    case 'aws':
      return `AWS service ${backend.uri}`;
  }
}

function readIntegrationResponse(response: any): IntegrationResponseSpec {
  const status = Number(response?.StatusCode ?? 200);
  return {
    statusCode: Number.isInteger(status) ? status : 200,
    selectionPattern: typeof response?.SelectionPattern === 'string' && response.SelectionPattern !== '' ? response.SelectionPattern : undefined,
    responseParameters: stringEntries(response?.ResponseParameters),
    responseTemplates: stringEntries(response?.ResponseTemplates),
    contentHandling: contentHandlingOf(response?.ContentHandling),
  };
}

function passthroughOf(value: unknown): PassthroughBehavior {
  const upper = typeof value === 'string' ? value.toUpperCase() : '';
  return upper === 'WHEN_NO_TEMPLATES' || upper === 'NEVER' ? upper : 'WHEN_NO_MATCH';
}

function contentHandlingOf(value: unknown): ContentHandling | undefined {
  return value === 'CONVERT_TO_TEXT' || value === 'CONVERT_TO_BINARY' ? value : undefined;
}
