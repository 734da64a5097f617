/**
 * What the gateway needs to know about an AWS service to call one of its actions: the SDK's
 * service id (which names the `AWS_ENDPOINT_URL_<SERVICE>` variable: the id in upper case, spaces
 * as underscores, https://docs.aws.amazon.com/sdkref/latest/guide/ss-endpoints-table.html), the
 * SigV4 signing name, and the wire protocol of its actions (the JSON protocols name the action in
 * `X-Amz-Target: <prefix>.<Action>`; the query protocol in `Action=<Action>`).
 */

export type ServiceProtocol =
  | { readonly kind: 'json'; readonly targetPrefix: string; readonly contentType: 'application/x-amz-json-1.0' | 'application/x-amz-json-1.1' }
  | { readonly kind: 'query' }
  | { readonly kind: 'rest' };

export interface AwsService {
  /** The SDK's `serviceId` (`DynamoDB`, `SFN`, `CloudWatch Logs`). */
  readonly serviceId: string;
  /** SigV4 signing name. */
  readonly signingName: string;
  readonly protocol: ServiceProtocol;
}

const JSON_10 = 'application/x-amz-json-1.0';
const JSON_11 = 'application/x-amz-json-1.1';

/** By the service part of an `arn:aws:apigateway:<region>:<service>:...` integration URI. */
const SERVICES: Readonly<Record<string, AwsService>> = {
  dynamodb: { serviceId: 'DynamoDB', signingName: 'dynamodb', protocol: { kind: 'json', targetPrefix: 'DynamoDB_20120810', contentType: JSON_10 } },
  states: { serviceId: 'SFN', signingName: 'states', protocol: { kind: 'json', targetPrefix: 'AWSStepFunctions', contentType: JSON_10 } },
  events: { serviceId: 'EventBridge', signingName: 'events', protocol: { kind: 'json', targetPrefix: 'AWSEvents', contentType: JSON_11 } },
  kinesis: { serviceId: 'Kinesis', signingName: 'kinesis', protocol: { kind: 'json', targetPrefix: 'Kinesis_20131202', contentType: JSON_11 } },
  firehose: { serviceId: 'Firehose', signingName: 'firehose', protocol: { kind: 'json', targetPrefix: 'Firehose_20150804', contentType: JSON_11 } },
  logs: { serviceId: 'CloudWatch Logs', signingName: 'logs', protocol: { kind: 'json', targetPrefix: 'Logs_20140328', contentType: JSON_11 } },
  secretsmanager: { serviceId: 'Secrets Manager', signingName: 'secretsmanager', protocol: { kind: 'json', targetPrefix: 'secretsmanager', contentType: JSON_11 } },
  ssm: { serviceId: 'SSM', signingName: 'ssm', protocol: { kind: 'json', targetPrefix: 'AmazonSSM', contentType: JSON_11 } },
  sqs: { serviceId: 'SQS', signingName: 'sqs', protocol: { kind: 'query' } },
  sns: { serviceId: 'SNS', signingName: 'sns', protocol: { kind: 'query' } },
  s3: { serviceId: 'S3', signingName: 's3', protocol: { kind: 'rest' } },
  lambda: { serviceId: 'Lambda', signingName: 'lambda', protocol: { kind: 'rest' } },
};

/** The service, or one assumed from its name (query protocol, signing name as written) when it is not in the table. */
export function awsService(name: string): AwsService & { readonly known: boolean } {
  const lower = name.toLowerCase();
  const known = Object.prototype.hasOwnProperty.call(SERVICES, lower) ? SERVICES[lower] : undefined;
  return known !== undefined ? { ...known, known: true } : { serviceId: lower, signingName: lower, protocol: { kind: 'query' }, known: false };
}

/** `AWS_ENDPOINT_URL_<SERVICE>` for a service id. */
export function endpointVariable(serviceId: string): string {
  return `AWS_ENDPOINT_URL_${serviceId.toUpperCase().replace(/[ -]/g, '_')}`;
}
