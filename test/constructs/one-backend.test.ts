import { NestedStack, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { newStack, synthOutputs } from './support';
import { ExternalBucket, OutputSection, RestItemsApi, StorageOutputsProducer, VendorOutputs } from '../../src';

/**
 * One backend is one top-level stack: per-backend rules see constructs in the stack and in
 * every nested stack under it, whichever nested stack they are in.
 */
describe('per-backend rules span sibling nested stacks', () => {
  test('two RestItemsApis with the same apiName in sibling nested stacks are refused', () => {
    const { stack } = newStack();
    new RestItemsApi(new NestedStack(stack, 'One'), 'Api', { apiName: 'items', outputsKey: 'one' });
    expect(() => new RestItemsApi(new NestedStack(stack, 'Two'), 'Api', { apiName: 'items', outputsKey: 'two' }))
      .toThrow("RestItemsApi Backend/Two/Api has apiName 'items', which RestItemsApi Backend/One/Api already uses; "
        + 'the client library keys its REST section by api_name, so give each API a distinct apiName.');
  });

  test('two RestItemsApis with the same outputsKey, one in the stack and one in a nested stack, are refused', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'Orders', { outputsKey: 'shop' });
    expect(() => new RestItemsApi(new NestedStack(stack, 'Nested'), 'Catalog', { outputsKey: 'shop' }))
      .toThrow("RestItemsApi Backend/Nested/Catalog would write custom.shop (outputsKey 'shop'), which RestItemsApi Backend/Orders already writes.");
  });

  test('distinct names in sibling nested stacks write one file for the top-level stack', () => {
    const { app, stack } = newStack();
    new RestItemsApi(new NestedStack(stack, 'One'), 'Api', { apiName: 'orders', outputsKey: 'orders' });
    new RestItemsApi(new NestedStack(stack, 'Two'), 'Api', { apiName: 'catalog', outputsKey: 'catalog' });
    const file = synthOutputs(app, stack);
    expect(Object.keys(file.custom)).toEqual(['orders', 'catalog']);
    expect(file.custom.catalog.api_name).toBe('catalog');
  });

  test('two ExternalBuckets in sibling nested stacks are refused', () => {
    const { stack } = newStack();
    new ExternalBucket(new NestedStack(stack, 'One'), 'Media', { bucketName: 'bucket-one' });
    expect(() => new ExternalBucket(new NestedStack(stack, 'Two'), 'Media', { bucketName: 'bucket-two' }))
      .toThrow('ExternalBucket Backend/Two/Media cannot describe storage: ExternalBucket Backend/One/Media already does. vendor_outputs.json describes one bucket.');
  });

  test('an ExternalBucket next to a StorageOutputsProducer in a sibling nested stack is refused, in either order', () => {
    const first = newStack();
    const bucket = new s3.Bucket(new NestedStack(first.stack, 'Data'), 'Bucket');
    new StorageOutputsProducer(bucket.node.scope as Construct, 'Storage', { bucket });
    expect(() => new ExternalBucket(new NestedStack(first.stack, 'Media'), 'External', { bucketName: 'my-bucket' }))
      .toThrow('ExternalBucket Backend/Media/External cannot describe storage: the backend already has a managed storage producer at Backend/Data/Storage');

    const second = newStack();
    new ExternalBucket(new NestedStack(second.stack, 'Media'), 'External', { bucketName: 'my-bucket' });
    const nested = new NestedStack(second.stack, 'Data');
    const owned = new s3.Bucket(nested, 'Bucket');
    expect(() => new StorageOutputsProducer(nested, 'Storage', { bucket: owned }))
      .toThrow("Backend/Data/Storage cannot produce section 'storage': ExternalBucket Backend/Media/External already describes the backend's bucket.");
  });

  test('separate top-level stacks are separate backends', () => {
    const { app, stack } = newStack();
    const other = new Stack(app, 'Other', { env: { region: 'eu-west-1' } });
    new RestItemsApi(stack, 'Api', { apiName: 'items' });
    new ExternalBucket(stack, 'Media', { bucketName: 'bucket-one' });
    expect(() => new RestItemsApi(other, 'Api', { apiName: 'items' })).not.toThrow();
    expect(() => new ExternalBucket(other, 'Media', { bucketName: 'bucket-two' })).not.toThrow();
  });
});

describe('VendorOutputs: names reserved per backend', () => {
  test('reserve and reservedBy see the whole backend, nested stacks included', () => {
    const { stack } = newStack();
    const inNested = new Construct(new NestedStack(stack, 'Nested'), 'Holder');
    expect(VendorOutputs.of(stack).reservedBy('Queue.name', 'jobs')).toBeUndefined();
    VendorOutputs.of(inNested).reserve('Queue.name', 'jobs');
    expect(VendorOutputs.of(stack).reservedBy('Queue.name', 'jobs')).toBe('Backend/Nested/Holder');
    expect(VendorOutputs.of(stack).reservedBy('Other.namespace', 'jobs')).toBeUndefined();
    expect(() => VendorOutputs.of(inNested).reserve('Queue.name', 'jobs')).not.toThrow();
    expect(() => VendorOutputs.of(new Construct(stack, 'Intruder')).reserve('Queue.name', 'jobs'))
      .toThrow("Backend/Intruder cannot reserve Queue.name 'jobs': Backend/Nested/Holder already has it (one per backend)");
  });

  test('producerOf names the producer of a section, wherever it is in the backend', () => {
    const { stack } = newStack();
    expect(VendorOutputs.of(stack).producerOf(OutputSection.STORAGE)).toBeUndefined();
    const producer = new Construct(new NestedStack(stack, 'Nested'), 'Producer');
    VendorOutputs.of(producer).claim(OutputSection.STORAGE);
    expect(VendorOutputs.of(stack).producerOf(OutputSection.STORAGE)).toBe('Backend/Nested/Producer');
    expect(VendorOutputs.of(stack).producerOf(OutputSection.AUTH)).toBeUndefined();
  });

  test('looking up adds nothing to the stack', () => {
    const { stack } = newStack();
    VendorOutputs.of(stack).reservedBy('x', 'y');
    VendorOutputs.of(stack).producerOf(OutputSection.AUTH);
    expect(stack.node.tryFindChild('VendorOutputs.Collector')).toBeUndefined();
  });
});
