/**
 * Why a function of the template is not run by the local API: what in the template invokes it (an
 * HTTP API's integration, an event source mapping, a rule, a custom resource, ...), found by the
 * references other resources make to it.
 */
import { referencedId } from './template-references';
import { isPlainObject } from '../../../outputs/cdk-free/json-data';

/** What invokes functions, by the type of the resource that refers to them; first match wins. */
const INVOKERS: ReadonlyArray<readonly [type: string, words: string]> = [
  ['AWS::Lambda::EventSourceMapping', 'an event source mapping (SQS, Kinesis, DynamoDB Streams, ...)'],
  ['AWS::Events::Rule', 'an EventBridge rule'],
  ['AWS::Scheduler::Schedule', 'an EventBridge Scheduler schedule'],
  ['AWS::SNS::Subscription', 'an SNS subscription'],
  ['AWS::StepFunctions::StateMachine', 'a Step Functions state machine'],
  ['AWS::Cognito::UserPool', 'a Cognito user pool trigger'],
  ['AWS::AppSync::DataSource', 'an AppSync data source'],
  ['AWS::Logs::SubscriptionFilter', 'a CloudWatch Logs subscription filter'],
  ['AWS::CloudFront::Distribution', 'a CloudFront distribution (Lambda@Edge)'],
  ['AWS::Pipes::Pipe', 'an EventBridge pipe'],
];

/**
 * Why the function `functionId` is not run locally, from what refers to it in `resources`;
 * `label` names a resource as messages do (its construct path).
 */
export function notInvokedReason(functionId: string, resources: Record<string, any>, label: (logicalId: string) => string): string {
  const referrers = Object.entries(resources).filter(([id, r]) => id !== functionId && refersTo(r?.Properties, functionId));
  const v2Integration = referrers.find(([, r]) => r?.Type === 'AWS::ApiGatewayV2::Integration');
  if (v2Integration !== undefined) {
    return `invoked by ${v2ApiName(v2Integration[1], resources, label)}, which the local API does not serve yet`;
  }
  const url = referrers.find(([, r]) => r?.Type === 'AWS::Lambda::Url');
  if (url !== undefined) {
    return `invoked by its function URL ${label(url[0])}, which the local API does not serve yet`;
  }
  for (const [type, words] of INVOKERS) {
    const referrer = referrers.find(([, r]) => r?.Type === type);
    if (referrer !== undefined) {
      return `invoked by ${words} (${referrer[0]}), which the local API does not serve`;
    }
  }
  const customResource = referrers.find(([, r]) => refersTo(r?.Properties?.ServiceToken, functionId));
  if (customResource !== undefined) {
    return `the provider of custom resource ${customResource[0]} (${customResource[1].Type}), which runs during deploy`;
  }
  const permission = referrers.find(([, r]) => r?.Type === 'AWS::Lambda::Permission' && typeof r.Properties?.Principal === 'string');
  if (permission !== undefined) {
    return `invoked by ${permission[1].Properties.Principal} (permission ${permission[0]}), which the local API does not serve`;
  }
  return 'no API of the app invokes it';
}

/** `HTTP API Backend/Http` or `WebSocket API Backend/Chat`: the API of a v2 integration. */
function v2ApiName(integration: any, resources: Record<string, any>, label: (logicalId: string) => string): string {
  const apiId = referencedId(integration?.Properties?.ApiId);
  if (apiId === undefined) {
    return 'an API Gateway v2 API';
  }
  const protocol = resources[apiId]?.Properties?.ProtocolType;
  return `${protocol === 'WEBSOCKET' ? 'WebSocket' : 'HTTP'} API ${label(apiId)}`;
}

/** Whether `value` holds a `Ref`, `Fn::GetAtt` or `Fn::Sub` reference to `logicalId`. */
function refersTo(value: unknown, logicalId: string): boolean {
  if (typeof value === 'string') {
    return value.includes('${') && (value.includes(`\${${logicalId}}`) || value.includes(`\${${logicalId}.`));
  }
  if (Array.isArray(value)) {
    return value.some((v) => refersTo(v, logicalId));
  }
  if (!isPlainObject(value)) {
    return false;
  }
  if (value.Ref === logicalId) {
    return true;
  }
  const getAtt = value['Fn::GetAtt'];
  if ((Array.isArray(getAtt) && getAtt[0] === logicalId) || (typeof getAtt === 'string' && getAtt.split('.')[0] === logicalId)) {
    return true;
  }
  return Object.values(value).some((v) => refersTo(v, logicalId));
}
