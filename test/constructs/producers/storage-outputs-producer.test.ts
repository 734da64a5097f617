import * as s3 from 'aws-cdk-lib/aws-s3';
import { ExternalBucket, StorageOutputsProducer, StorageOutputsProducerProps, VendorOutputs } from '../../../src';
import { newStack, synthOutputs } from '../support';

describe('StorageOutputsProducer', () => {
  test('writes the bucket name and region of a bucket the backend creates', () => {
    const { app, stack } = newStack();
    const bucket = new s3.Bucket(stack, 'Bucket');
    const producer = new StorageOutputsProducer(stack, 'Storage', { bucket });
    expect(stack.resolve(producer.outputs.bucketName)).toEqual({ Ref: stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket) });
    expect(synthOutputs(app, stack).storage).toEqual({ vendor_region: 'eu-west-1', bucket_name: expect.stringMatching(/^<pending: /) });
  });

  test('a literal bucket name is written at synth', () => {
    const { app, stack } = newStack();
    new StorageOutputsProducer(stack, 'Storage', { bucket: new s3.Bucket(stack, 'Bucket', { bucketName: 'my-app-files' }) });
    expect(synthOutputs(app, stack).storage).toEqual({ vendor_region: 'eu-west-1', bucket_name: 'my-app-files' });
  });

  test('the bucket prop takes an s3.Bucket: TypeScript refuses an imported IBucket', () => {
    const { stack } = newStack();
    const imported = s3.Bucket.fromBucketName(stack, 'Imported', 'someone-elses-bucket');
    // @ts-expect-error an imported bucket is an s3.IBucket, not an s3.Bucket
    const props: StorageOutputsProducerProps = { bucket: imported };
    expect(props.bucket).toBe(imported);
  });

  test('refuses an imported bucket passed without a type check (JavaScript), pointing to ExternalBucket', () => {
    const { stack } = newStack();
    const bucket = s3.Bucket.fromBucketName(stack, 'Imported', 'someone-elses-bucket') as unknown as s3.Bucket;
    expect(() => new StorageOutputsProducer(stack, 'Storage', { bucket }))
      .toThrow('Backend/Storage: bucket Backend/Imported is not created by this backend (it is imported); StorageOutputsProducer describes a bucket the backend owns. Use ExternalBucket for a bucket managed outside the toolchain.');
  });

  test('owns storage: addOutput and ExternalBucket are refused afterwards', () => {
    const { stack } = newStack();
    new StorageOutputsProducer(stack, 'Storage', { bucket: new s3.Bucket(stack, 'Bucket') });
    expect(() => VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: 'eu-west-1', bucketName: 'other' } }))
      .toThrow(/section 'storage' is generated from Backend\/Storage/);
    expect(() => new ExternalBucket(stack, 'External', { bucketName: 'other-bucket' }))
      .toThrow('ExternalBucket Backend/External cannot describe storage: the backend already has a managed storage producer at Backend/Storage, '
        + 'which generates the storage section from a bucket the backend creates. vendor_outputs.json describes one bucket: remove one of them.');
  });

  test('refused after an ExternalBucket, naming it', () => {
    const { stack } = newStack();
    new ExternalBucket(stack, 'External', { bucketName: 'other-bucket' });
    expect(() => new StorageOutputsProducer(stack, 'Storage', { bucket: new s3.Bucket(stack, 'Bucket') }))
      .toThrow("Backend/Storage cannot produce section 'storage': ExternalBucket Backend/External already describes the backend's bucket. vendor_outputs.json describes one bucket: remove the ExternalBucket or this producer.");
  });

  test('refused after an addOutput into storage, by the outputs core', () => {
    const { stack } = newStack();
    VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: 'eu-west-1', bucketName: 'other' } });
    expect(() => new StorageOutputsProducer(stack, 'Storage', { bucket: new s3.Bucket(stack, 'Bucket') }))
      .toThrow("Backend/Storage cannot produce section 'storage': Backend already wrote into it.");
  });
});
