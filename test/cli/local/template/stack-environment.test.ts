/**
 * The resolver of a stack's template values, tier by tier: what the local API is (REST API ids,
 * stage names), deployed values (outputs and physical ids), what the template determines (name
 * properties and the formats CloudFormation derives from them, parameter defaults, pseudo
 * parameters), and stand-ins (listed) for everything else. `known` never makes a value up.
 */
import { BACKEND_ARTIFACT } from './stack-artifact';
import { DeployedReferences, deployedReferences, deployedStackOf, pseudoOfStackId, referencesOfStack } from '../../../../src/cli/local/template/deployed-values';
import { stackEnvironment, TextValue, valuesOf } from '../../../../src/cli/local/template/stack-environment';

const ARTIFACT = BACKEND_ARTIFACT;

const TEMPLATE = {
  Parameters: {
    Env: { Type: 'String', Default: 'dev' },
    Secret: { Type: 'String' },
  },
  Resources: {
    Api1234: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'items' } },
    Stage1: { Type: 'AWS::ApiGateway::Stage', Properties: { StageName: 'prod' } },
    Items5C12978B: { Type: 'AWS::DynamoDB::Table', Properties: {} },
    Named: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: { 'Fn::Join': ['-', [{ Ref: 'AWS::StackName' }, { Ref: 'Env' }, 'items']] } } },
    Orders: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'orders' } },
    Jobs: { Type: 'AWS::SQS::Queue', Properties: { FifoQueue: true } },
    Files: { Type: 'AWS::S3::Bucket' },
    Flow: { Type: 'AWS::StepFunctions::StateMachine', Properties: { StateMachineName: 'flow' } },
    Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'news' } },
    Handler: { Type: 'AWS::Lambda::Function', Properties: {} },
    Pool: { Type: 'AWS::Cognito::UserPool', Properties: {} },
    Loop: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: { Ref: 'Loop' } } },
    Role: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'runner', Path: '/svc/' } },
  },
  Outputs: {
    PoolId: { Value: { Ref: 'Pool' } },
    PoolArn: { Value: { 'Fn::GetAtt': ['Pool', 'Arn'] } },
    Joined: { Value: { 'Fn::Join': ['', ['x', { Ref: 'Pool' }]] } },
    ApiId: { Value: { Ref: 'Api1234' } },
  },
};

const values = stackEnvironment(ARTIFACT, TEMPLATE);

function text(expression: unknown, resolver = values): TextValue {
  return resolver.text(expression);
}

describe('what the template determines', () => {
  test.each([
    [{ Ref: 'Api1234' }, 'Api1234'],
    [{ Ref: 'Stage1' }, 'prod'],
    [{ 'Fn::GetAtt': ['Api1234', 'RootResourceId'] }, 'Api1234-root'],
    [{ Ref: 'Env' }, 'dev'],
    [{ Ref: 'Named' }, 'Backend-dev-items'],
    [{ 'Fn::GetAtt': ['Named', 'Arn'] }, 'arn:aws:dynamodb:eu-west-1:123456789012:table/Backend-dev-items'],
    [{ Ref: 'Orders' }, 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders'],
    [{ 'Fn::GetAtt': ['Orders', 'QueueName'] }, 'orders'],
    [{ 'Fn::GetAtt': ['Orders', 'Arn'] }, 'arn:aws:sqs:eu-west-1:123456789012:orders'],
    [{ 'Fn::GetAtt': ['Orders', 'QueueUrl'] }, 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders'],
    [{ Ref: 'Flow' }, 'arn:aws:states:eu-west-1:123456789012:stateMachine:flow'],
    [{ 'Fn::GetAtt': ['Flow', 'Name'] }, 'flow'],
    [{ Ref: 'Topic' }, 'arn:aws:sns:eu-west-1:123456789012:news'],
    [{ 'Fn::GetAtt': ['Topic', 'TopicName'] }, 'news'],
    [{ 'Fn::GetAtt': ['Role', 'Arn'] }, 'arn:aws:iam::123456789012:role/svc/runner'],
    [{ Ref: 'Handler' }, 'Backend-Handler'],
    [{ 'Fn::GetAtt': ['Handler', 'Arn'] }, 'arn:aws:lambda:eu-west-1:123456789012:function:Backend-Handler'],
    [{ 'Fn::Sub': 'arn:${AWS::Partition}:sqs:${AWS::Region}:${AWS::AccountId}:${Orders.QueueName}' }, 'arn:aws:sqs:eu-west-1:123456789012:orders'],
    [{ 'Fn::Select': [1, [{ Ref: 'Env' }, { 'Fn::GetAtt': ['Orders', 'QueueName'] }]] }, 'orders'],
  ])('%j is %j, known, no stand-in', (expression, expected) => {
    expect(text(expression)).toEqual({ value: expected, standIns: [] });
    const ref = (expression as any).Ref;
    if (typeof ref === 'string') {
      expect(values.known.ref(ref)).toBe(expected);
    }
  });

  test('a request template built with Fn::Join embeds the table\'s name', () => {
    const template = { 'Fn::Join': ['', ['{"TableName": "', { Ref: 'Named' }, '", "Item": {}}']] };
    expect(text(template)).toEqual({ value: '{"TableName": "Backend-dev-items", "Item": {}}', standIns: [] });
  });
});

describe('stand-ins', () => {
  test.each([
    [{ Ref: 'Items5C12978B' }, 'Backend-Items5C12978B-LOCAL', 'Ref Items5C12978B'],
    [{ 'Fn::GetAtt': ['Items5C12978B', 'Arn'] }, 'arn:aws:dynamodb:eu-west-1:123456789012:table/Backend-Items5C12978B-LOCAL', 'Fn::GetAtt Items5C12978B.Arn'],
    [{ Ref: 'Files' }, 'backend-files-local', 'Ref Files'],
    [{ 'Fn::GetAtt': ['Files', 'Arn'] }, 'arn:aws:s3:::backend-files-local', 'Fn::GetAtt Files.Arn'],
    [{ 'Fn::GetAtt': ['Jobs', 'QueueName'] }, 'Backend-Jobs-LOCAL.fifo', 'Fn::GetAtt Jobs.QueueName'],
    [{ Ref: 'Pool' }, 'Backend-Pool-LOCAL', 'Ref Pool'],
    [{ 'Fn::GetAtt': ['Pool', 'ProviderURL'] }, 'Backend-Pool-LOCAL-ProviderURL', 'Fn::GetAtt Pool.ProviderURL'],
    [{ 'Fn::GetAtt': ['Items5C12978B', 'StreamArn'] }, 'Backend-Items5C12978B-LOCAL-StreamArn', 'Fn::GetAtt Items5C12978B.StreamArn'],
    [{ Ref: 'Secret' }, 'Secret-LOCAL', 'Ref Secret'],
    [{ Ref: 'Loop' }, 'Backend-Loop-LOCAL', 'Ref Loop'],
  ])('%j is the stand-in %j, listed as %j, and not known', (expression, value, reference) => {
    expect(text(expression)).toEqual({ value, standIns: [{ reference, value }] });
    const ref = (expression as any).Ref;
    if (typeof ref === 'string') {
      expect(values.known.ref(ref)).toBeUndefined();
    } else {
      const [id, attribute] = (expression as any)['Fn::GetAtt'];
      expect(values.known.getAtt(id, attribute)).toBeUndefined();
    }
  });

  test('each stand-in is listed once, in the order met', () => {
    const template = { 'Fn::Join': ['', [{ Ref: 'Items5C12978B' }, { Ref: 'Named' }, { Ref: 'Items5C12978B' }, { Ref: 'Pool' }]] };
    const result = text(template);
    expect(result.value).toBe('Backend-Items5C12978B-LOCALBackend-dev-itemsBackend-Items5C12978B-LOCALBackend-Pool-LOCAL');
    expect(result.value !== undefined && result.standIns.map((s) => s.reference)).toEqual(['Ref Items5C12978B', 'Ref Pool']);
  });
});

describe('what cannot be evaluated is a problem, never JSON', () => {
  test.each([
    [{ Ref: 'Nothing' }, 'Ref Nothing is not known locally'],
    [{ 'Fn::ImportValue': 'Shared' }, 'Fn::ImportValue Shared is not known locally'],
    [{ 'Fn::Join': [','] }, 'Fn::Join needs 2 arguments'],
    [['a', 'b'], '["a","b"] is not a text value'],
  ])('%j: %s', (expression, problem) => {
    expect(text(expression)).toEqual({ value: undefined, problem });
  });

  test('texts() keeps each entry that evaluates (own keys), lists the others', () => {
    const map = values.texts(JSON.parse('{"application/json": {"Fn::Join": ["", ["a", {"Ref": "Items5C12978B"}]]}, "__proto__": "p", "text/plain": {"Ref": "Nothing"}}'));
    expect(Object.keys(map.values)).toEqual(['application/json', '__proto__']);
    expect(map.values['application/json']).toBe('aBackend-Items5C12978B-LOCAL');
    expect(Object.getPrototypeOf(map.values)).toBe(Object.prototype);
    expect(map.standIns).toEqual([{ reference: 'Ref Items5C12978B', value: 'Backend-Items5C12978B-LOCAL' }]);
    expect(map.problems).toEqual([{ key: 'text/plain', problem: 'Ref Nothing is not known locally' }]);
  });

  test.each([undefined, null, 'x', ['a']])('texts(%j) has no entries', (map) => {
    expect(values.texts(map)).toEqual({ values: {}, standIns: [], problems: [] });
  });

  test('valuesOf an environment makes nothing up', () => {
    const plain = valuesOf({ pseudo: {}, ref: (id) => (id === 'A' ? 'a' : undefined), getAtt: () => undefined });
    expect(plain.text({ 'Fn::Join': ['-', [{ Ref: 'A' }, 'b']] })).toEqual({ value: 'a-b', standIns: [] });
    expect(plain.text({ Ref: 'B' })).toEqual({ value: undefined, problem: 'Ref B is not known locally' });
  });
});

describe('deployed values come first, after what the local API is', () => {
  const deployedStack = {
    stackName: 'Backend',
    outputs: { PoolId: 'eu-west-1_AbCdEf', PoolArn: 'arn:aws:cognito-idp:eu-west-1:210987654321:userpool/eu-west-1_AbCdEf', Joined: 'xyz', ApiId: 'a1b2c3' },
    physicalIds: { Items5C12978B: 'Backend-Items5C12978B-1Q2W3E4R5T6Y', Jobs: 'https://sqs.eu-central-1.amazonaws.com/210987654321/Backend-Jobs-9Z8Y.fifo', Api1234: 'a1b2c3' },
    pseudo: pseudoOfStackId('arn:aws:cloudformation:eu-central-1:210987654321:stack/Backend/guid'),
  };
  const references: DeployedReferences = deployedReferences('--from-stack Backend', deployedStack, TEMPLATE);
  const deployed = stackEnvironment(ARTIFACT, TEMPLATE, references);

  test('an output whose Value is exactly a Ref or GetAtt tells that reference; others tell nothing', () => {
    expect(references.refs.get('Pool')).toBe('eu-west-1_AbCdEf');
    expect(references.attributes.get('Pool.Arn')).toBe('arn:aws:cognito-idp:eu-west-1:210987654321:userpool/eu-west-1_AbCdEf');
    expect([...references.attributes.keys()]).toEqual(['Pool.Arn']);
  });

  test.each([
    [{ Ref: 'Items5C12978B' }, 'Backend-Items5C12978B-1Q2W3E4R5T6Y'],
    [{ 'Fn::GetAtt': ['Items5C12978B', 'Arn'] }, 'arn:aws:dynamodb:eu-central-1:210987654321:table/Backend-Items5C12978B-1Q2W3E4R5T6Y'],
    [{ 'Fn::GetAtt': ['Jobs', 'QueueName'] }, 'Backend-Jobs-9Z8Y.fifo'],
    [{ Ref: 'Pool' }, 'eu-west-1_AbCdEf'],
    [{ 'Fn::GetAtt': ['Pool', 'Arn'] }, 'arn:aws:cognito-idp:eu-west-1:210987654321:userpool/eu-west-1_AbCdEf'],
    [{ Ref: 'AWS::AccountId' }, '210987654321'],
    [{ Ref: 'Api1234' }, 'Api1234'],
  ])('%j is the deployed %j', (expression, expected) => {
    expect(text(expression, deployed)).toEqual({ value: expected, standIns: [] });
  });

  test('the deployed stack is the one of the same name, else the only one for the only local stack', () => {
    const source = { source: '--outputs-file o.json', stacks: [deployedStack] };
    expect(deployedStackOf(source, 'Backend', 'Backend', 2)).toBe(deployedStack);
    expect(deployedStackOf(source, 'Backend-dev', 'BackendDev', 1)).toBe(deployedStack);
    expect(deployedStackOf(source, 'Backend-dev', 'BackendDev', 2)).toBeUndefined();
    expect(deployedStackOf(undefined, 'Backend', 'Backend', 1)).toBeUndefined();
    expect(referencesOfStack(source, { stackName: 'Other', artifactId: 'Other', template: TEMPLATE }, 2)).toBeUndefined();
    expect(referencesOfStack(source, { stackName: 'Backend', artifactId: 'Backend', template: TEMPLATE }, 2)?.source).toBe('--outputs-file o.json');
  });

  test.each([
    ['arn:aws-cn:cloudformation:cn-north-1:111122223333:stack/S/x', { 'AWS::Partition': 'aws-cn', 'AWS::Region': 'cn-north-1', 'AWS::AccountId': '111122223333' }],
    ['Backend', {}],
  ])('pseudo parameters of the stack id %s', (stackId, expected) => {
    expect(pseudoOfStackId(stackId)).toMatchObject(expected);
  });
});

describe('conditions, mappings and zones', () => {
  const conditional = stackEnvironment(ARTIFACT, {
    Parameters: { Env: { Type: 'String', Default: 'prod' } },
    Conditions: {
      IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
      IsChina: { 'Fn::Equals': [{ Ref: 'AWS::Partition' }, 'aws-cn'] },
      Both: { 'Fn::And': [{ Condition: 'IsProd' }, { 'Fn::Not': [{ Condition: 'IsChina' }] }] },
      Either: { 'Fn::Or': [{ Condition: 'IsChina' }, { Condition: 'Both' }] },
      Loop: { 'Fn::Not': [{ Condition: 'Loop' }] },
      OnStandIn: { 'Fn::Equals': [{ Ref: 'Table' }, 'x'] },
    },
    Mappings: { Sizes: { prod: { capacity: '10' }, dev: { capacity: '1' } } },
    Resources: { Table: { Type: 'AWS::DynamoDB::Table' } },
  });

  test.each([
    [{ 'Fn::If': ['IsProd', 'big', 'small'] }, 'big'],
    [{ 'Fn::If': ['IsChina', 'cn', 'global'] }, 'global'],
    [{ 'Fn::If': ['Both', 'yes', 'no'] }, 'yes'],
    [{ 'Fn::If': ['Either', 'yes', 'no'] }, 'yes'],
    [{ 'Fn::FindInMap': ['Sizes', { Ref: 'Env' }, 'capacity'] }, '10'],
    [{ 'Fn::Select': [1, { 'Fn::GetAZs': '' }] }, 'eu-west-1b'],
    [{ 'Fn::Select': [0, { 'Fn::GetAZs': { Ref: 'AWS::Region' } }] }, 'eu-west-1a'],
  ])('%j is %j', (expression, expected) => {
    expect(conditional.text(expression)).toEqual({ value: expected, standIns: [] });
    expect(conditional.known.condition?.('IsProd')).toBe(true);
  });

  test.each([
    [{ 'Fn::If': ['Missing', 'a', 'b'] }, 'condition Missing is not known locally'],
    [{ 'Fn::If': ['Loop', 'a', 'b'] }, 'condition Loop is not known locally'],
    [{ 'Fn::If': ['OnStandIn', 'a', 'b'] }, 'condition OnStandIn is not known locally'],
    [{ 'Fn::If': ['IsProd', { Ref: 'AWS::NoValue' }, 'b'] }, 'AWS::NoValue'],
    [{ 'Fn::FindInMap': ['Sizes', 'test', 'capacity'] }, 'Fn::FindInMap Sizes.test.capacity is not in the template'],
    [{ 'Fn::FindInMap': ['Sizes', 'constructor', 'capacity'] }, 'Fn::FindInMap Sizes.constructor.capacity is not in the template'],
    [{ 'Fn::And': [{ Condition: 'IsProd' }] }, 'Fn::And needs 2 to 10 conditions'],
    [{ 'Fn::Not': ['maybe'] }, 'Fn::Not needs conditions'],
  ])('%j cannot be evaluated: %s', (expression, problem) => {
    expect(conditional.text(expression)).toEqual({ value: undefined, problem });
  });
});
