/**
 * Deploy-time publication: `publishToBucket` (aws-cdk-lib's BucketDeployment) and
 * `publishToParameter` (an SSM String parameter) write the document that `generate` would write
 * for the same deployed values.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Aspects, CfnParameter, NestedStack, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { AwsSolutionsChecks } from 'cdk-nag';
import { VendorOutputs } from '../../src';
import { substituteMarkers } from '../support/bucket-deployment-handler';
import { runCli } from '../support/cli';
import { DeployedValues, evaluate, evaluateOutputs } from '../support/fake-cloudformation';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'publication-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A backend with deploy-time values of every kind the document carries, and a site bucket. */
function backend(app: App, id = 'Backend'): { stack: Stack; site: s3.Bucket } {
  const stack = new Stack(app, id);
  const site = new s3.Bucket(stack, 'Site', { enforceSSL: true });
  const files = new s3.Bucket(stack, 'Files');
  const topic = new sns.Topic(stack, 'Topic');
  const note = new CfnParameter(stack, 'Note', { type: 'String' });
  VendorOutputs.of(stack).addOutput({
    storage: { vendorRegion: stack.region, bucketName: files.bucketName },
    custom: { topic: topic.topicArn, note: note.valueAsString, framed: `before "${topic.topicName}" after`, literal: 'q"uote \\ back' },
  });
  return { stack, site };
}

/** Deployed values for the backend's Refs and attributes, with characters that need escaping. */
function deployedValues(template: any): DeployedValues {
  const values: DeployedValues = { 'AWS::Region': 'eu-west-1', 'Note': 'a "quoted" note \\ with a backslash,\nnewline, tab\t, é and 😀' };
  for (const [id, resource] of Object.entries<any>(template.Resources)) {
    if (resource.Type === 'AWS::SNS::Topic') {
      values[id] = `arn:aws:sns:eu-west-1:111111111111:${id}-x`;
      values[`${id}.TopicName`] = `${id}-x`;
    } else if (resource.Type === 'AWS::S3::Bucket') {
      values[id] = `backend-${id.toLowerCase()}-1a2b3c`;
    }
  }
  return values;
}

/** What `vendor-outputs generate --outputs-file` writes for `values`. */
async function generated(outdir: string, template: any, values: DeployedValues, name: string): Promise<string> {
  const outputsFile = path.join(tmp, `${name}.outputs.json`);
  fs.writeFileSync(outputsFile, JSON.stringify({ Backend: evaluateOutputs(template, values) }));
  const outDir = path.join(tmp, `${name}-generated`);
  const run = await runCli(['generate', '--outputs-file', outputsFile, '--app', outdir, '--out-dir', outDir]);
  expect(run.stderr).toContain('deploy-time value(s) filled');
  expect(run.code).toBe(0);
  return fs.readFileSync(path.join(outDir, 'vendor_outputs.json'), 'utf8');
}

function deploymentOf(template: any): any {
  const found = Object.values<any>(template.Resources).filter((r) => r.Type === 'Custom::CDKBucketDeployment');
  expect(found).toHaveLength(1);
  return found[0].Properties;
}

describe('publishToBucket', () => {
  test('writes only its object into the bucket, as application/json, not cached', () => {
    const app = new App();
    const { stack, site } = backend(app);
    VendorOutputs.of(stack).publishToBucket(site);
    const template = Template.fromStack(stack);
    template.resourceCountIs('Custom::CDKBucketDeployment', 1);
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: stack.getLogicalId(site.node.defaultChild as s3.CfnBucket) },
      Prune: false,
      SystemMetadata: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
      SourceObjectKeys: [Match.stringLikeRegexp('\\.zip$')],
      SourceMarkers: [Match.objectLike({})],
    });
    const markers = deploymentOf(template.toJSON()).SourceMarkers[0];
    // One marker per deploy-time value: region, bucket name, topic ARN, note, topic name.
    expect(Object.values(markers).map((v) => JSON.stringify(v)).sort()).toEqual([
      expect.stringContaining('"Fn::GetAtt":["Topic'),
      expect.stringContaining('{"Ref":"AWS::Region"}'),
      expect.stringContaining('{"Ref":"Files'),
      expect.stringContaining('{"Ref":"Note"}'),
      expect.stringContaining('{"Ref":"Topic'),
    ].sort());
  });

  test('the object the handler writes has the values and key order of generate --outputs-file', async () => {
    const outdir = path.join(tmp, 'bucket.out');
    const app = new App({ outdir });
    const { stack, site } = backend(app);
    VendorOutputs.of(stack).publishToBucket(site, 'config/vendor_outputs.json');
    const template = app.synth().getStackByName('Backend').template;
    const deployment = deploymentOf(template);
    const assetDir = path.join(outdir, `asset.${String(deployment.SourceObjectKeys[0]).replace(/\.zip$/, '')}`);
    const published = path.join(tmp, 'published.json');
    fs.copyFileSync(path.join(assetDir, 'config', 'vendor_outputs.json'), published);

    const values = deployedValues(template);
    const markers = Object.fromEntries(Object.entries<any>(deployment.SourceMarkers[0])
      .map(([marker, expression]) => [marker, String(evaluate(expression, values))]));
    const mode = substituteMarkers(published, markers, deployment.SourceMarkersConfig?.[0] ?? {});
    const text = fs.readFileSync(published, 'utf8');
    const expected = await generated(outdir, template, values, 'bucket');

    expect(JSON.parse(expected).custom.note).toBe(values.Note);
    // Same values in the same key order; 2.189's handler writes the JSON again in its own format.
    expect(`${JSON.stringify(JSON.parse(text), null, 2)}\n`).toBe(expected);
    if (mode === 'escape') {
      // Handlers with a markers config keep the text: the same bytes, except that Python writes
      // the non-ASCII characters of deploy-time values as \u escapes.
      expect(text).toBe(expected.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`));
    }
  });

  test('values added after publishToBucket are published too', () => {
    const outdir = path.join(tmp, 'late.out');
    const app = new App({ outdir });
    const stack = new Stack(app, 'Backend');
    VendorOutputs.of(stack).publishToBucket(s3.Bucket.fromBucketName(stack, 'Site', 'my-site'));
    VendorOutputs.of(stack).addOutput({ custom: { late: 'added after publishToBucket' } });
    const template = app.synth().getStackByName('Backend').template;
    const key = String(deploymentOf(template).SourceObjectKeys[0]).replace(/\.zip$/, '');
    const text = fs.readFileSync(path.join(outdir, `asset.${key}`, 'vendor_outputs.json'), 'utf8');
    expect(JSON.parse(text).custom).toEqual({ late: 'added after publishToBucket' });
    expect(text).toBe(fs.readFileSync(path.join(outdir, 'Backend.vendor_outputs.json'), 'utf8'));
  });

  test.each([
    ['with', true],
    ['without', false],
  ])('the source is added %s aspect stabilization', (_, stabilization) => {
    const app = new App({ context: { '@aws-cdk/core:aspectStabilization': stabilization } });
    const stack = new Stack(app, 'Backend');
    VendorOutputs.of(stack).addOutput({ custom: { a: 'b' } });
    VendorOutputs.of(stack).publishToBucket(s3.Bucket.fromBucketName(stack, 'Site', 'my-site'));
    expect(deploymentOf(Template.fromStack(stack).toJSON()).SourceObjectKeys).toHaveLength(1);
  });

  test('a distribution gets the object path invalidated', () => {
    const app = new App();
    const { stack, site } = backend(app);
    const distribution = new cloudfront.Distribution(stack, 'Cdn', { defaultBehavior: { origin: origins.S3BucketOrigin.withOriginAccessControl(site) } });
    VendorOutputs.of(stack).publishToBucket(site, 'vendor_outputs.json', { distribution });
    Template.fromStack(stack).hasResourceProperties('Custom::CDKBucketDeployment', {
      DistributionId: { Ref: stack.getLogicalId(distribution.node.defaultChild as cloudfront.CfnDistribution) },
      DistributionPaths: ['/vendor_outputs.json'],
    });
  });

  test('publishing the same object again is a no-op; with other options it is refused', () => {
    const app = new App();
    const { stack, site } = backend(app);
    VendorOutputs.of(stack).publishToBucket(site);
    VendorOutputs.of(stack).publishToBucket(site, 'vendor_outputs.json');
    Template.fromStack(stack).resourceCountIs('Custom::CDKBucketDeployment', 1);
    const distribution = cloudfront.Distribution.fromDistributionAttributes(stack, 'Cdn', { distributionId: 'E1', domainName: 'd.cloudfront.net' });
    expect(() => VendorOutputs.of(stack).publishToBucket(site, undefined, { distribution }))
      .toThrow('Backend: Backend already publishes to the s3 object vendor_outputs.json in Backend/Site (asked by Backend) with other options; publish each target once');
  });

  test.each([
    ['', 'the object key "" is empty'],
    ['/vendor_outputs.json', 'starts with /'],
    ['config/', 'ends with / (that names a folder)'],
    ['a//b.json', 'has an empty, . or .. path segment'],
    ['../b.json', 'has an empty, . or .. path segment'],
    ['with space.json', "holds a character outside S3's safe set"],
  ])('object key %j is refused', (key, message) => {
    const { stack, site } = backend(new App());
    expect(() => VendorOutputs.of(site).publishToBucket(site, key)).toThrow('Backend/Site: publishToBucket: ');
    expect(() => VendorOutputs.of(stack).publishToBucket(site, key)).toThrow(message);
  });

  test('a token object key is refused', () => {
    const { stack, site } = backend(new App());
    const key = new CfnParameter(stack, 'Key').valueAsString;
    expect(() => VendorOutputs.of(stack).publishToBucket(site, key)).toThrow(/^Backend: publishToBucket needs an object key known at synth \(got the token \$\{Token\[/);
  });

  test('from a nested stack, the deployment goes to the top-level stack that carries the document', () => {
    const { stack, site } = backend(new App());
    const nested = new NestedStack(stack, 'Nested');
    VendorOutputs.of(nested).publishToBucket(site);
    Template.fromStack(stack).resourceCountIs('Custom::CDKBucketDeployment', 1);
  });

  test('cdk-nag AwsSolutions: no finding on what publication adds', () => {
    const app = new App();
    const { stack, site } = backend(app);
    VendorOutputs.of(stack).publishToBucket(site);
    VendorOutputs.of(stack).publishToParameter('/app/main/vendor_outputs');
    Aspects.of(app).add(new AwsSolutionsChecks());
    app.synth();
    const findings = [...Annotations.fromStack(stack).findError('*', Match.anyValue()), ...Annotations.fromStack(stack).findWarning('*', Match.anyValue())]
      .filter((m) => /Publish|Custom::CDKBucketDeployment/.test(m.id) && String(m.entry.data).startsWith('AwsSolutions-'));
    expect(findings.map((f) => `${f.id}: ${f.entry.data}`)).toEqual([]);
  });
});

describe('publishToParameter', () => {
  test('the parameter CloudFormation writes is what generate --outputs-file writes, byte for byte', async () => {
    const outdir = path.join(tmp, 'parameter.out');
    const app = new App({ outdir });
    const stack = new Stack(app, 'Backend');
    const files = new s3.Bucket(stack, 'Files');
    const topic = new sns.Topic(stack, 'Topic');
    VendorOutputs.of(stack).addOutput({
      storage: { vendorRegion: stack.region, bucketName: files.bucketName },
      custom: { topic: topic.topicArn, framed: `before ${topic.topicName} after`, literal: 'q"uote \\ back é' },
    });
    VendorOutputs.of(stack).publishToParameter('/app/main/vendor_outputs');
    const template = app.synth().getStackByName('Backend').template;
    const parameter = Object.values<any>(template.Resources).find((r) => r.Type === 'AWS::SSM::Parameter').Properties;
    expect(parameter).toMatchObject({ Name: '/app/main/vendor_outputs', Type: 'String', Tier: 'Intelligent-Tiering' });
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('unescaped-parameter-value'))).toEqual([]);
    const values = deployedValues(template);
    expect(evaluate(parameter.Value, values)).toBe(await generated(outdir, template, values, 'parameter'));
  });

  test('a value CloudFormation may fill with free text is warned about at synth', () => {
    const app = new App();
    const { stack } = backend(app);
    VendorOutputs.of(stack).publishToParameter('/app/main/vendor_outputs');
    app.synth();
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('unescaped-parameter-value'));
    expect(warnings.map((w) => String(w.entry.data).replace(/ \[ack: .*\]$/, ''))).toEqual([
      '/custom/note comes from the template parameter Note, which CloudFormation writes into the SSM parameter without JSON escaping: '
      + 'a value holding " or \\ or a control character makes the parameter invalid JSON. Publish with publishToBucket (escaped), or keep such values out of the document.',
    ]);
  });

  test('a small document known at synth is a standard parameter', () => {
    const stack = new Stack(new App(), 'Backend');
    VendorOutputs.of(stack).addOutput({ custom: { a: 'b' } });
    VendorOutputs.of(stack).publishToParameter('vendor_outputs');
    Template.fromStack(stack).hasResourceProperties('AWS::SSM::Parameter', {
      Name: 'vendor_outputs',
      Tier: 'Standard',
      Value: Match.stringLikeRegexp('"custom": \\{\n {4}"a": "b"\n {2}\\}\n\\}\n$'),
    });
  });

  test('more than 4,096 characters is an advanced parameter', () => {
    const stack = new Stack(new App(), 'Backend');
    VendorOutputs.of(stack).addOutput({ custom: { big: 'x'.repeat(5000) } });
    VendorOutputs.of(stack).publishToParameter('/big');
    Template.fromStack(stack).hasResourceProperties('AWS::SSM::Parameter', { Tier: 'Advanced' });
  });

  test('more than 8,192 characters fails the synth and names the way out', () => {
    const app = new App();
    const stack = new Stack(app, 'Backend');
    VendorOutputs.of(stack).addOutput({ custom: { big: 'x'.repeat(9000) } });
    VendorOutputs.of(stack).publishToParameter('/big');
    expect(() => app.synth()).toThrow(/publishToParameter\("\/big"\): the document is 9148 characters, too large for Parameter Store: a parameter holds at most 8192 \(advanced tier\); publish it with publishToBucket instead/);
  });

  test('a standard tier asked for, with a document above 4,096 characters, fails the synth', () => {
    const app = new App();
    const stack = new Stack(app, 'Backend');
    const topic = new sns.Topic(stack, 'Topic');
    VendorOutputs.of(stack).addOutput({ custom: { big: 'x'.repeat(4100), topic: topic.topicArn } });
    VendorOutputs.of(stack).publishToParameter('/big', ssm.ParameterTier.STANDARD);
    expect(() => app.synth()).toThrow(/the document is 4265 characters before its deploy-time values, too large for Parameter Store: a standard parameter holds at most 4096; leave the tier to the library or choose ADVANCED \(8192\)/);
  });

  test.each([
    ['', 'is empty'],
    ['aws-config', "starts with 'aws' or 'ssm', which Parameter Store reserves"],
    ['/ssm/x', "starts with 'aws' or 'ssm', which Parameter Store reserves"],
    ['with space', 'holds a character other than letters, digits and _ . - /'],
    ['app/main', 'has a path without its leading /'],
  ])('parameter name %j is refused', (name, message) => {
    const stack = new Stack(new App(), 'Backend');
    expect(() => VendorOutputs.of(stack).publishToParameter(name)).toThrow(`Backend: publishToParameter: the parameter name ${JSON.stringify(name)} ${message}`);
  });

  test('a token parameter name is refused', () => {
    const stack = new Stack(new App(), 'Backend');
    const name = new CfnParameter(stack, 'Name').valueAsString;
    expect(() => VendorOutputs.of(stack).publishToParameter(name)).toThrow(/^Backend: publishToParameter needs a parameter name known at synth/);
  });

  test('publishing the same parameter again is a no-op; with another tier it is refused', () => {
    const stack = new Stack(new App(), 'Backend');
    VendorOutputs.of(stack).addOutput({ custom: { a: 'b' } });
    VendorOutputs.of(stack).publishToParameter('/p');
    VendorOutputs.of(stack).publishToParameter('/p');
    Template.fromStack(stack).resourceCountIs('AWS::SSM::Parameter', 1);
    expect(() => VendorOutputs.of(stack).publishToParameter('/p', ssm.ParameterTier.ADVANCED)).toThrow('already publishes to the SSM parameter /p (asked by Backend) with other options');
  });
});
