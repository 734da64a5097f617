/**
 * An `AWS::ApiGatewayV2::Integration` of an HTTP API: `AWS_PROXY` to a Lambda function of the
 * template (its ARN or its invocation URI as `IntegrationUri`) or, with an `IntegrationSubtype`, to
 * an AWS service action (aws-service-integration-reader.ts), `HTTP_PROXY` to a public URL. What
 * cannot be served locally is an `UNSUPPORTED` integration with a start-up warning saying why.
 */
import { readAwsServiceIntegration } from './aws-service-integration-reader';
import { httpIntegrationTimeoutMs } from './integration-timeout';
import { readParameterMapping } from './parameter-mapping-reader';
import type { HttpIntegrationSpec } from '../../model/http-api';
import type { StackTemplate } from '../../template/stack-template';
import { integrationFunctionId } from '../../template/template-references';

export function readHttpIntegration(stack: StackTemplate, props: any, where: string): HttpIntegrationSpec {
  const type = String(props?.IntegrationType ?? '').toUpperCase();
  switch (type) {
    case 'AWS_PROXY':
      return props?.IntegrationSubtype === undefined ? readLambdaProxy(stack, props, where) : readAwsService(stack, props, where);
    case 'HTTP_PROXY':
      return readUrlProxy(stack, props, where);
    default:
      return unserved(stack, where, `${type || 'an'} integration (HTTP APIs take AWS_PROXY and HTTP_PROXY)`);
  }
}

function readLambdaProxy(stack: StackTemplate, props: any, where: string): HttpIntegrationSpec {
  const fnId = integrationFunctionId(props?.IntegrationUri, stack.resources);
  if (fnId === undefined) {
    return unserved(stack, where, 'AWS_PROXY integration with a function outside the template');
  }
  const version = String(props?.PayloadFormatVersion ?? '1.0');
  if (version !== '1.0' && version !== '2.0') {
    return unserved(stack, where, `AWS_PROXY integration with PayloadFormatVersion ${version} (1.0 or 2.0)`);
  }
  return {
    type: 'AWS_PROXY',
    functionKey: stack.registerFunction(fnId),
    payloadFormatVersion: version,
    timeoutMs: httpIntegrationTimeoutMs(props?.TimeoutInMillis),
    ...mappingOf(stack, props, where),
  };
}

function readAwsService(stack: StackTemplate, props: any, where: string): HttpIntegrationSpec {
  const read = readAwsServiceIntegration(stack, props);
  return 'unserved' in read ? unserved(stack, where, read.unserved) : read;
}

function readUrlProxy(stack: StackTemplate, props: any, where: string): HttpIntegrationSpec {
  if (String(props?.ConnectionType ?? 'INTERNET').toUpperCase() === 'VPC_LINK') {
    return unserved(stack, where, 'HTTP_PROXY integration through a VPC link (a private integration: the VPC is not reachable locally)');
  }
  const uri = stack.values.text(props?.IntegrationUri);
  if (uri.value === undefined) {
    return unserved(stack, where, `HTTP_PROXY integration whose URI is not known locally (${uri.problem})`);
  }
  if (!/^https?:\/\/[^/]/i.test(uri.value)) {
    return unserved(stack, where, `HTTP_PROXY integration to ${JSON.stringify(uri.value)}, not an absolute http:// or https:// URL`);
  }
  return {
    type: 'HTTP_PROXY',
    uri: uri.value,
    method: String(props?.IntegrationMethod ?? 'ANY').toUpperCase(),
    timeoutMs: httpIntegrationTimeoutMs(props?.TimeoutInMillis),
    ...mappingOf(stack, props, where),
  };
}

/** `{ mapping }` when the integration maps parameters, else nothing. */
function mappingOf(stack: StackTemplate, props: any, where: string): { mapping?: ReturnType<typeof readParameterMapping> } {
  const mapping = readParameterMapping(stack, props, where);
  return mapping === undefined ? {} : { mapping };
}

/** Not served: its routes answer 500; the start-up warning says why. */
function unserved(stack: StackTemplate, where: string, description: string): HttpIntegrationSpec {
  stack.warnings.push(`${where}: ${description} is not served locally; its routes answer 500`);
  return { type: 'UNSUPPORTED', description };
}
