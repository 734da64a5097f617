/**
 * Reads a non-proxy `Integration` (`MOCK`, `AWS` to a Lambda function or another service, `HTTP`)
 * with its templates, parameters and integration responses. What cannot be served locally becomes
 * an `UNSUPPORTED` spec with a start-up warning saying why.
 */
import type { ContentHandling, IntegrationResponseSpec, IntegrationSpec, NonProxyBackend, NonProxyIntegrationSpec, PassthroughBehavior } from '../../../model/rest-api';
import { distinctStandIns, StandIn } from '../../../model/stand-in';
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
  const values = readValues(context, integration);
  if (values.problems.length > 0) {
    const reason = `${type} integration whose ${values.problems.join(', ')} cannot be evaluated locally`;
    context.warnings.push(`${context.stackName}/${methodId}: ${reason}; answered 500`);
    return notServed(reason);
  }
  const standIns = distinctStandIns([backend.standIns ?? [], values.standIns]);
  const spec: NonProxyIntegrationSpec = {
    type,
    backend: withoutStandIns(backend),
    description: describe(backend, integration),
    httpMethod: typeof integration?.IntegrationHttpMethod === 'string' ? integration.IntegrationHttpMethod.toUpperCase() : undefined,
    requestTemplates: values.requestTemplates,
    passthroughBehavior: passthroughOf(integration?.PassthroughBehavior),
    contentHandling: contentHandlingOf(integration?.ContentHandling),
    requestParameters: values.requestParameters,
    integrationResponses: values.integrationResponses,
    timeoutMs: integrationTimeoutMs(integration?.TimeoutInMillis),
    ...(standIns.length > 0 ? { standIns } : {}),
  };
  return spec;
}

/** The templates and parameters of the integration and its responses, resolved; what cannot be is listed. */
function readValues(context: IntegrationReadContext, integration: any): {
  requestTemplates: Record<string, string>;
  requestParameters: Record<string, string>;
  integrationResponses: IntegrationResponseSpec[];
  standIns: StandIn[];
  problems: string[];
} {
  const problems: string[] = [];
  const standIns: StandIn[][] = [];
  const texts = (map: unknown, what: string): Record<string, string> => {
    const read = context.values.texts(map);
    problems.push(...read.problems.map((p) => `${what} ${p.key} (${p.problem})`));
    standIns.push([...read.standIns]);
    return read.values;
  };
  const requestTemplates = texts(integration?.RequestTemplates, 'request template');
  const requestParameters = texts(integration?.RequestParameters, 'request parameter');
  const responses: any[] = Array.isArray(integration?.IntegrationResponses) ? integration.IntegrationResponses : [];
  const integrationResponses = responses.map((response) => readIntegrationResponse(response, texts));
  return { requestTemplates, requestParameters, integrationResponses, standIns: distinctStandIns(standIns), problems };
}

function withoutStandIns(backend: NonProxyBackend & { standIns?: readonly StandIn[] }): NonProxyBackend {
  const { standIns: _standIns, ...rest } = backend;
  return rest as NonProxyBackend;
}

function readBackend(
  context: IntegrationReadContext, type: string, integration: any, methodId: string,
): (NonProxyBackend & { standIns?: readonly StandIn[] }) | { unsupported: string } {
  if (type === 'MOCK') {
    return { kind: 'mock' };
  }
  if (type === 'HTTP') {
    // An HTTP endpoint named by a stand-in would not exist: only a known URI is served.
    const uri = tryEvaluateString(integration?.Uri, context.environment);
    return uri === undefined ? { unsupported: 'HTTP integration whose Uri cannot be resolved locally' } : { kind: 'http', uri };
  }
  const fnId = context.functionIdOf(integration?.Uri);
  if (fnId !== undefined) {
    return { kind: 'lambda', functionKey: context.registerFunction(fnId) };
  }
  const resolved = context.values.text(integration?.Uri);
  const uri = resolved.value;
  if (uri !== undefined && LAMBDA_INVOCATION.test(uri)) {
    return { unsupported: `AWS integration to a Lambda function outside the template (${methodId})` };
  }
  const service = uri === undefined ? undefined : /^arn:[^:]+:apigateway:([^:]*):([^:]+):(action|path)\//.exec(uri);
  if (uri === undefined || service === null || service === undefined) {
    return { unsupported: `AWS integration whose Uri cannot be resolved locally${resolved.value === undefined ? ` (${resolved.problem})` : ''}` };
  }
  // `Credentials` (the role the gateway assumes) is not used: requests are signed with the environment's credentials.
  return { kind: 'aws', uri, region: service[1] || context.region, standIns: resolved.value === undefined ? [] : resolved.standIns };
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

function readIntegrationResponse(response: any, texts: (map: unknown, what: string) => Record<string, string>): IntegrationResponseSpec {
  const status = Number(response?.StatusCode ?? 200);
  return {
    statusCode: Number.isInteger(status) ? status : 200,
    selectionPattern: typeof response?.SelectionPattern === 'string' && response.SelectionPattern !== '' ? response.SelectionPattern : undefined,
    responseParameters: texts(response?.ResponseParameters, `integration response ${response?.StatusCode ?? 200} parameter`),
    responseTemplates: texts(response?.ResponseTemplates, `integration response ${response?.StatusCode ?? 200} template`),
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
