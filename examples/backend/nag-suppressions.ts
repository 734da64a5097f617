import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { IdentityPool } from 'aws-cdk-lib/aws-cognito-identitypool';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { RestItemsApi } from '../../src';

/** What the suppressions apply to. */
export interface ExampleResources {
  readonly stack: Stack;
  readonly userPool: cognito.UserPool;
  readonly identityPool: IdentityPool;
  readonly graphql: appsync.GraphqlApi;
  readonly bucket: s3.Bucket;
  readonly api: RestItemsApi;
  readonly hello: lambda.Function;
  readonly helloMethod: apigw.Method;
}

/**
 * cdk-nag (AwsSolutions) suppressions of the example backend, each with its reason.
 * test/constructs/example.test.ts runs the pack on the stack and expects no error.
 * (RestItemsApi itself suppresses APIG4/COG4 on its methods when guest access is chosen.)
 */
export function addExampleNagSuppressions(r: ExampleResources): void {
  NagSuppressions.addResourceSuppressions(r.userPool, [
    { id: 'AwsSolutions-COG8', reason: 'Example backend: the Plus feature plan (threat protection) costs per user; a production pool should weigh it.' },
  ]);
  NagSuppressions.addResourceSuppressions(r.identityPool, [
    { id: 'AwsSolutions-COG7', reason: 'Guest (unauthenticated) identities are part of the spec: auth.unauthenticated_identities_enabled defaults to true and guests render maps.' },
  ]);
  NagSuppressions.addResourceSuppressions(r.identityPool.authenticatedRole, [
    {
      id: 'AwsSolutions-IAM5',
      reason: 'Signed-in users read and write objects under public/ of the app bucket: Bucket.grantReadWrite with the key pattern public/* (its action wildcards are the S3 object action families).',
      appliesTo: ['Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:DeleteObject*', 'Action::s3:Abort*', { regex: '/^Resource::<Files[0-9A-F]+\\.Arn>\\/public\\/\\*$/' }],
    },
  ], true);
  NagSuppressions.addResourceSuppressions(r.graphql, [
    { id: 'AwsSolutions-IAM4', reason: 'AppSync writes its logs with the AWS managed AWSAppSyncPushToCloudWatchLogs policy, which only allows CloudWatch Logs writes.', appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSAppSyncPushToCloudWatchLogs'] },
  ], true);
  // The log-retention function AppSync's logConfig always adds (a CDK singleton at stack level).
  const logRetention = r.stack.node.children.find((c) => c.node.id.startsWith('LogRetention'));
  if (logRetention) {
    NagSuppressions.addResourceSuppressions(logRetention, [
      { id: 'AwsSolutions-IAM4', reason: 'CDK\'s log-retention function only writes its own logs (AWS managed AWSLambdaBasicExecutionRole).', appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'] },
      { id: 'AwsSolutions-IAM5', reason: 'CDK\'s log-retention function sets the retention of log groups whose names are known only at deploy time, so its logs:PutRetentionPolicy resource is *.', appliesTo: ['Resource::*'] },
    ], true);
  }
  NagSuppressions.addResourceSuppressions(r.bucket, [
    { id: 'AwsSolutions-S1', reason: 'Example backend: server access logs need a second bucket (itself unlogged); CloudTrail data events are the production choice.' },
  ]);
  NagSuppressions.addResourceSuppressions(r.api.handler, [
    { id: 'AwsSolutions-IAM4', reason: 'The items function only writes its own logs, which is what the AWS managed AWSLambdaBasicExecutionRole allows.', appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'] },
    { id: 'AwsSolutions-IAM5', reason: 'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so their resource is *.', appliesTo: ['Resource::*'] },
    { id: 'AwsSolutions-L1', reason: 'The bundled items function runs on nodejs22.x by default, the newest Node.js runtime of the oldest aws-cdk-lib the library supports; with a newer aws-cdk-lib, pass runtime: lambda.Runtime.NODEJS_24_X.' },
  ], true);
  NagSuppressions.addResourceSuppressions(r.hello, [
    { id: 'AwsSolutions-IAM4', reason: 'The hello function only writes its own logs, which is what the AWS managed AWSLambdaBasicExecutionRole allows.', appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'] },
    { id: 'AwsSolutions-L1', reason: 'nodejs22.x is the newest Node.js runtime of the oldest aws-cdk-lib the library supports, which the example builds with.' },
  ], true);
  NagSuppressions.addResourceSuppressions(r.helloMethod, [
    { id: 'AwsSolutions-APIG4', reason: 'GET /hello answers a fixed greeting with no data behind it: guests may call it, like the items API\'s guest access.' },
    { id: 'AwsSolutions-COG4', reason: 'GET /hello answers a fixed greeting with no data behind it: no Cognito user pool authorizer is needed.' },
  ]);
  NagSuppressions.addResourceSuppressions(r.api.api, [
    { id: 'AwsSolutions-IAM4', reason: 'The account-level API Gateway logging role uses the AWS managed AmazonAPIGatewayPushToCloudWatchLogs policy, the documented setup for access and execution logs.', appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs'] },
  ], true);
}
