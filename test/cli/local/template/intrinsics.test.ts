/**
 * Intrinsic functions evaluated locally: what evaluates, what is unresolvable, and pseudo parameters.
 */
import { evaluate, IntrinsicEnvironment, pseudoParameters, tryEvaluateString, Unresolvable } from '../../../../src/cli/local/template/intrinsics';

const env: IntrinsicEnvironment = {
  pseudo: pseudoParameters('eu-west-1', 'Backend'),
  ref: (id) => ({ Api1234: 'Api1234', Stage1: 'prod' } as Record<string, string>)[id],
  getAtt: (id, attr) => (id === 'Api1234' && attr === 'RootResourceId' ? 'root' : undefined),
};

describe('intrinsics', () => {
  test('the execute-api URL join of aws-cdk-lib', () => {
    const url = { 'Fn::Join': ['', ['https://', { Ref: 'Api1234' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', { Ref: 'Stage1' }, '/']] };
    expect(evaluate(url, env)).toBe('https://Api1234.execute-api.eu-west-1.amazonaws.com/prod/');
  });

  test.each([
    [{ 'Fn::Sub': 'arn:${AWS::Partition}:x:${AWS::Region}:${AWS::AccountId}:${Api1234}' }, 'arn:aws:x:eu-west-1:123456789012:Api1234'],
    [{ 'Fn::Sub': ['${A}-${Api1234.RootResourceId}', { A: 'a' }] }, 'a-root'],
    [{ 'Fn::Select': [1, { 'Fn::Split': [',', 'a,b,c'] }] }, 'b'],
    [{ 'Fn::Base64': 'hi' }, 'aGk='],
    [{ 'Fn::GetAtt': ['Api1234', 'RootResourceId'] }, 'root'],
    ['literal', 'literal'],
  ])('%j evaluates to %j', (expression, value) => {
    expect(evaluate(expression, env)).toBe(value);
  });

  test.each([
    [{ Ref: 'Bucket' }, 'Ref Bucket is not known locally'],
    [{ 'Fn::GetAtt': ['Fn', 'Arn'] }, 'Fn::GetAtt Fn.Arn is not known locally'],
    [{ 'Fn::ImportValue': 'x' }, 'Fn::ImportValue x is not known locally'],
    [{ 'Fn::Select': [5, ['a']] }, 'Fn::Select index 5 is out of range'],
  ])('%j is unresolvable: %s', (expression, message) => {
    expect(() => evaluate(expression, env)).toThrow(Unresolvable);
    expect(() => evaluate(expression, env)).toThrow(message);
    expect(tryEvaluateString(expression, env)).toBeUndefined();
  });

  test('pseudo parameters follow the partition of the region', () => {
    expect(pseudoParameters('cn-north-1', 'S')).toMatchObject({ 'AWS::URLSuffix': 'amazonaws.com.cn', 'AWS::Partition': 'aws-cn' });
    expect(pseudoParameters('us-gov-west-1', 'S')['AWS::Partition']).toBe('aws-us-gov');
  });
});
