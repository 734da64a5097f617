/**
 * The first-class AWS service integrations of HTTP APIs and the parameters each takes, as
 * "Integration subtype reference" (API Gateway developer guide) lists them: the required ones
 * must be mapped (CloudFormation refuses the integration otherwise), `Region` is optional for
 * every subtype. The service is the part of an `arn:aws:apigateway:<region>:<service>:...` URI
 * that names it (../../rest/integrations/aws-services.ts), which names `AWS_ENDPOINT_URL_<SERVICE>`.
 */

export interface AwsSubtype {
  /** The subtype as the service spells it. */
  readonly name: string;
  /** `sqs`, `events`, `states`, `kinesis`, `appconfig`. */
  readonly service: string;
  /** The service's API action (`SendMessage`). */
  readonly action: string;
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

const subtype = (name: string, service: string, required: string[], optional: string[]): AwsSubtype => ({
  name, service, action: name.slice(name.indexOf('-') + 1), required, optional: [...optional, 'Region'],
});

const SUBTYPES: readonly AwsSubtype[] = [
  subtype('EventBridge-PutEvents', 'events', ['Detail', 'DetailType', 'Source'], ['Time', 'EventBusName', 'Resources', 'TraceHeader']),
  subtype('SQS-SendMessage', 'sqs', ['QueueUrl', 'MessageBody'], ['DelaySeconds', 'MessageAttributes', 'MessageDeduplicationId', 'MessageGroupId', 'MessageSystemAttributes']),
  subtype('SQS-ReceiveMessage', 'sqs', ['QueueUrl'], ['AttributeNames', 'MaxNumberOfMessages', 'MessageAttributeNames', 'ReceiveRequestAttemptId', 'VisibilityTimeout', 'WaitTimeSeconds']),
  subtype('SQS-DeleteMessage', 'sqs', ['ReceiptHandle', 'QueueUrl'], []),
  subtype('SQS-PurgeQueue', 'sqs', ['QueueUrl'], []),
  subtype('AppConfig-GetConfiguration', 'appconfig', ['Application', 'Environment', 'Configuration', 'ClientId'], ['ClientConfigurationVersion']),
  subtype('Kinesis-PutRecord', 'kinesis', ['StreamName', 'Data', 'PartitionKey'], ['SequenceNumberForOrdering', 'ExplicitHashKey']),
  subtype('StepFunctions-StartExecution', 'states', ['StateMachineArn'], ['Name', 'Input']),
  subtype('StepFunctions-StartSyncExecution', 'states', ['StateMachineArn'], ['Name', 'Input', 'TraceHeader']),
  subtype('StepFunctions-StopExecution', 'states', ['ExecutionArn'], ['Cause', 'Error']),
];

/** The subtype of that name (as the service spells it), or undefined. */
export function awsSubtype(name: string): AwsSubtype | undefined {
  return SUBTYPES.find((s) => s.name === name);
}
