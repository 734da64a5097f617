/**
 * The wire form of HTTP APIs' AWS service integration calls, from mapped parameters: how lists and
 * maps are flattened for SQS's query protocol, PutEvents' entry, and what is sent as it is.
 */
import { awsActionCall } from '../../../../../src/cli/local/http/integrations/aws-action-call';
import { awsSubtype } from '../../../../../src/cli/local/http/integrations/aws-subtypes';

const form = (body: Buffer) => Object.fromEntries(new URLSearchParams(body.toString()));

test('SQS lists from a JSON array; a MessageAttributes value that is not a JSON object is sent as it is; Region is not sent', () => {
  const call = awsActionCall(awsSubtype('SQS-ReceiveMessage')!, { QueueUrl: 'q', MessageAttributeNames: '["a","b"]', Region: 'eu-west-1' }, 'eu-west-1');
  expect(call).toMatchObject({ uri: 'arn:aws:apigateway:eu-west-1:sqs:path/', method: 'POST' });
  expect(form(call.body)).toEqual({ 'Action': 'ReceiveMessage', 'Version': '2012-11-05', 'QueueUrl': 'q', 'MessageAttributeName.1': 'a', 'MessageAttributeName.2': 'b' });
  const send = awsActionCall(awsSubtype('SQS-SendMessage')!, { QueueUrl: 'q', MessageBody: 'm', MessageAttributes: 'not json' }, 'us-east-1');
  expect(form(send.body)).toMatchObject({ MessageAttributes: 'not json' });
});

test('EventBridge Resources given comma-separated become a list; JSON services get their target and content type', () => {
  const call = awsActionCall(awsSubtype('EventBridge-PutEvents')!, { Detail: '{}', DetailType: 't', Source: 's', Resources: 'a, b' }, 'us-east-1');
  expect(JSON.parse(call.body.toString())).toEqual({ Entries: [{ Detail: '{}', DetailType: 't', Source: 's', Resources: ['a', 'b'] }] });
  expect(call.headers).toEqual([['Content-Type', 'application/x-amz-json-1.1'], ['X-Amz-Target', 'AWSEvents.PutEvents']]);
});

test('AppConfig: the path segments percent-encoded, the client version in the query when mapped', () => {
  const call = awsActionCall(awsSubtype('AppConfig-GetConfiguration')!, {
    Application: 'my app', Environment: 'e', Configuration: 'c/1', ClientId: 'id', ClientConfigurationVersion: '3',
  }, 'us-east-1');
  expect(call).toMatchObject({
    method: 'GET', uri: 'arn:aws:apigateway:us-east-1:appconfig:path/applications/my%20app/environments/e/configurations/c%2F1?client_id=id&client_configuration_version=3',
  });
});

test('subtypes are matched as the service spells them', () => {
  expect(awsSubtype('sqs-sendmessage')).toBeUndefined();
  expect(awsSubtype('SQS-SendMessage')).toMatchObject({ service: 'sqs', action: 'SendMessage', required: ['QueueUrl', 'MessageBody'] });
});
