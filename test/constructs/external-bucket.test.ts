import { Template } from 'aws-cdk-lib/assertions';
import { IdentityPool } from 'aws-cdk-lib/aws-cognito-identitypool';
import * as iam from 'aws-cdk-lib/aws-iam';
import { newStack, synthOutputs } from './support';
import { ExternalBucket, ExternalBucketAccess } from '../../src';


describe('ExternalBucket', () => {
  test('writes storage from props (final at synth) and creates no resource', () => {
    const { app, stack } = newStack();
    const bucket = new ExternalBucket(stack, 'Media', { bucketName: 'my-media-bucket', region: 'us-west-2' });
    expect(bucket.bucket.bucketName).toBe('my-media-bucket');
    expect(synthOutputs(app, stack).storage).toEqual({ vendor_region: 'us-west-2', bucket_name: 'my-media-bucket' });
    expect(Template.fromStack(stack).toJSON().Resources ?? {}).toEqual({});
  });

  test('region defaults to the stack region', () => {
    const { app, stack } = newStack('ap-southeast-2');
    new ExternalBucket(stack, 'Media', { bucketName: 'my-media-bucket' });
    expect(synthOutputs(app, stack).storage.vendor_region).toBe('ap-southeast-2');
  });

  test('identity pool grants: read-write for signed-in users and read for guests on a prefix', () => {
    const { stack } = newStack();
    const pool = new IdentityPool(stack, 'Identity', { allowUnauthenticatedIdentities: true });
    new ExternalBucket(stack, 'Media', {
      bucketName: 'my-media-bucket',
      identityPool: pool,
      authenticatedAccess: ExternalBucketAccess.READ_WRITE,
      guestAccess: ExternalBucketAccess.READ,
      accessPrefix: 'public/',
    });
    const template = Template.fromStack(stack);
    const bucketArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::my-media-bucket']] };
    const objectsArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::my-media-bucket/public/*']] };
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [{ Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'], Effect: 'Allow', Resource: [bucketArn, objectsArn] }] },
      Roles: [{ Ref: stack.getLogicalId(pool.unauthenticatedRole.node.defaultChild as iam.CfnRole) }],
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [{
          Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:PutObject', 's3:PutObjectLegalHold', 's3:PutObjectRetention', 's3:PutObjectTagging', 's3:PutObjectVersionTagging', 's3:Abort*'],
          Effect: 'Allow',
          Resource: [bucketArn, objectsArn],
        }],
      },
      Roles: [{ Ref: stack.getLogicalId(pool.authenticatedRole.node.defaultChild as iam.CfnRole) }],
    });
    template.resourceCountIs('AWS::IAM::Policy', 2);
  });

  test('no access is granted by default, even with an identity pool', () => {
    const { stack } = newStack();
    const pool = new IdentityPool(stack, 'Identity');
    new ExternalBucket(stack, 'Media', { bucketName: 'my-media-bucket', identityPool: pool });
    Template.fromStack(stack).resourceCountIs('AWS::IAM::Policy', 0);
  });

  test('grantRead on the whole bucket', () => {
    const { stack } = newStack();
    const bucket = new ExternalBucket(stack, 'Media', { bucketName: 'my-media-bucket' });
    const role = new iam.Role(stack, 'Reader', { assumedBy: new iam.AccountRootPrincipal() });
    bucket.grantRead(role);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [{
          Action: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'],
          Effect: 'Allow',
          Resource: [
            { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::my-media-bucket']] },
            { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::my-media-bucket/*']] },
          ],
        }],
      },
    });
  });

  test('a second ExternalBucket is refused', () => {
    const { stack } = newStack();
    new ExternalBucket(stack, 'One', { bucketName: 'bucket-one' });
    expect(() => new ExternalBucket(stack, 'Two', { bucketName: 'bucket-two' }))
      .toThrow('ExternalBucket Backend/Two cannot describe storage: ExternalBucket Backend/One already does. vendor_outputs.json describes one bucket.');
  });

  describe('validation', () => {
    test.each([
      ['ab', false], ['abc', true], ['a'.repeat(63), true], ['a'.repeat(64), false],
      ['My-Bucket', false], ['-bucket', false], ['bucket-', false], ['my..bucket', false], ['192.168.5.4', false], ['my.bucket-1', true],
    ])('bucketName %s valid: %s', (bucketName, ok) => {
      const { stack } = newStack();
      const make = () => new ExternalBucket(stack, 'Media', { bucketName });
      if (ok) {
        expect(make).not.toThrow();
      } else {
        expect(make).toThrow(`Backend/Media: bucketName must be a valid S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit, not an IP address (got ${JSON.stringify(bucketName)})`);
      }
    });

    test('a bad region', () => {
      const { stack } = newStack();
      expect(() => new ExternalBucket(stack, 'Media', { bucketName: 'my-bucket', region: 'Europe' }))
        .toThrow('Backend/Media: region must be a region name such as \'eu-west-1\' (got "Europe")');
    });

    test('access without an identity pool', () => {
      const { stack } = newStack();
      expect(() => new ExternalBucket(stack, 'Media', { bucketName: 'my-bucket', guestAccess: ExternalBucketAccess.READ }))
        .toThrow('Backend/Media: authenticatedAccess and guestAccess need an identityPool whose roles get the access');
    });

    test.each(['/public/', 'public/*'])('accessPrefix %s', (accessPrefix) => {
      const { stack } = newStack();
      expect(() => new ExternalBucket(stack, 'Media', { bucketName: 'my-bucket', accessPrefix }))
        .toThrow(`Backend/Media: accessPrefix is a key prefix such as 'public/': no leading '/' and no '*' (got ${JSON.stringify(accessPrefix)})`);
    });
  });
});
