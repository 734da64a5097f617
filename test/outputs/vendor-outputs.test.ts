import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Aspects, AspectPriority, CfnOutput, IAspect, NestedStack, Stack, Token, Lazy } from 'aws-cdk-lib';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct, IConstruct } from 'constructs';
import { MfaConfiguration, OutputSection, VendorOutputs, VendorOutputsSchema } from '../../src';
import { METADATA_KEY, readCarriedDocument, rebuildDocument, VALUES_PER_OUTPUT } from '../../src/outputs/cdk-free/carriage';
import { deployedOutputs } from '../support/deploy';

let outdir: string;
beforeEach(() => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-core-'));
});
afterEach(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
});

function newStack(id = 'Backend') {
  const app = new App({ outdir });
  const stack = new Stack(app, id, { env: { region: 'eu-west-1' } });
  return { app, stack };
}

function writtenFile(stack: Stack): any {
  return JSON.parse(fs.readFileSync(path.join(outdir, `${stack.artifactId}.vendor_outputs.json`), 'utf8'));
}

const storage = { vendorRegion: 'eu-west-1', bucketName: 'my-bucket' };

describe('VendorOutputs.of', () => {
  test('installs one collector per stack on first use, and nothing before', () => {
    const { stack } = newStack();
    expect(stack.node.tryFindChild('VendorOutputs.Collector')).toBeUndefined();
    VendorOutputs.of(stack).addOutput({ storage });
    new Construct(stack, 'Child');
    VendorOutputs.of(stack.node.findChild('Child')).addOutput({ custom: { a: '1' } });
    expect(stack.node.children.filter((c) => c.node.id === 'VendorOutputs.Collector')).toHaveLength(1);
    expect(VendorOutputs.of(stack).assemblyFileName).toBe('Backend.vendor_outputs.json');
  });

  test('writes <artifact id>.vendor_outputs.json into the cloud assembly with managed keys first', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { z: '1' }, storage });
    app.synth();
    const text = fs.readFileSync(path.join(outdir, 'Backend.vendor_outputs.json'), 'utf8');
    expect(Object.keys(JSON.parse(text))).toEqual(['$schema', 'version', 'storage', 'custom']);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      $schema: VendorOutputsSchema.SCHEMA_ID,
      version: '1',
      storage: { vendor_region: 'eu-west-1', bucket_name: 'my-bucket' },
      custom: { z: '1' },
    });
    expect(fs.readdirSync(outdir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('maps every camelCase property to the snake_case key of the file', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({
      analytics: { vendorMessaging: { vendorRegion: 'r', appId: 'a' } },
      auth: {
        vendorRegion: 'r',
        userPoolId: 'p',
        userPoolClientId: 'c',
        identityPoolId: 'i',
        passwordPolicy: { minLength: 8, requireNumbers: true, requireLowercase: true, requireUppercase: true, requireSymbols: false },
        oauth: { identityProviders: [], domain: 'd', scopes: ['openid'], redirectSignInUri: ['https://in'], redirectSignOutUri: ['https://out'], responseType: 'code' as any },
        standardRequiredAttributes: ['email' as any],
        usernameAttributes: ['email' as any],
        userVerificationTypes: ['email' as any],
        unauthenticatedIdentitiesEnabled: false,
        mfaConfiguration: MfaConfiguration.OPTIONAL,
        mfaMethods: ['TOTP' as any],
      },
      data: {
        vendorRegion: 'r',
        url: 'u',
        apiKey: 'k',
        defaultAuthorizationType: 'API_KEY' as any,
        authorizationTypes: ['API_KEY' as any],
        modelIntrospection: { camelCaseKey: { keepMe: 1 } },
      },
      geo: {
        vendorRegion: 'r',
        maps: { items: { myMap: { style: 's' } }, defaultName: 'myMap' },
        searchIndices: { items: ['x'], defaultName: 'x' },
        geofenceCollections: { items: ['y'], defaultName: 'y' },
      },
      notifications: { vendorRegion: 'r', vendorMessagingAppId: 'a', channels: ['SMS' as any] },
      custom: { someKey: { innerKey: 'v' } },
    });
    app.synth();
    const file = writtenFile(stack);
    expect(file.auth.password_policy).toEqual({
      min_length: 8,
      require_numbers: true,
      require_lowercase: true,
      require_uppercase: true,
      require_symbols: false,
    });
    expect(file.auth.oauth.redirect_sign_in_uri).toEqual(['https://in']);
    expect(file.auth.unauthenticated_identities_enabled).toBe(false);
    expect(file.analytics).toEqual({ vendor_messaging: { vendor_region: 'r', app_id: 'a' } });
    expect(file.data.model_introspection).toEqual({ camelCaseKey: { keepMe: 1 } });
    expect(file.geo.maps.items).toEqual({ myMap: { style: 's' } });
    expect(file.geo.search_indices).toEqual({ items: ['x'], default: 'x' });
    expect(file.notifications.vendor_messaging_app_id).toBe('a');
    expect(file.custom).toEqual({ someKey: { innerKey: 'v' } });
    expect(VendorOutputsSchema.validate(file)).toEqual([]);
  });
});

describe('nested stacks', () => {
  test('a scope in a nested stack writes to the top-level stack, its values carried through the nested stack outputs', () => {
    const { app, stack } = newStack();
    const nested = new NestedStack(stack, 'Storage');
    const bucket = new s3.Bucket(nested, 'Bucket');
    const outputs = VendorOutputs.of(bucket);
    expect(outputs.stack).toBe(stack);
    outputs.addOutput({ storage: { vendorRegion: 'eu-west-1', bucketName: bucket.bucketName } });
    const assembly = app.synth();
    const template = assembly.getStackByName('Backend').template;
    const [output] = Object.values<any>(template.Outputs);
    expect(output.Value['Fn::Base64']['Fn::GetAtt'][1]).toMatch(/^Outputs\./);
    expect(readCarriedDocument(template.Metadata, 'Backend').pending.map((p) => p.pointer)).toEqual(['/storage/bucket_name']);
    expect(fs.readdirSync(outdir).filter((f) => f.endsWith('.vendor_outputs.json'))).toEqual(['Backend.vendor_outputs.json']);
  });
});

describe('addOutput refuses', () => {
  test.each(['version', '$schema'])('the managed key %s', (key) => {
    const { stack } = newStack();
    expect(() => VendorOutputs.of(stack).addOutput({ [key]: '1' } as any))
      .toThrow(`Invalid addOutput from Backend:\n  /${key}: '${key}' is managed by cdk-vendor-outputs and cannot be set with addOutput`);
  });

  test('an unknown section, listing the sections', () => {
    const { stack } = newStack();
    expect(() => VendorOutputs.of(stack).addOutput({ rest: {} } as any))
      .toThrow("/rest: unknown section 'rest'; allowed sections: analytics, auth, data, geo, notifications, storage, custom");
  });

  test('an unknown key inside a section, listing the keys', () => {
    const { stack } = newStack();
    expect(() => VendorOutputs.of(stack).addOutput({ storage: { ...storage, bucketArn: 'x' } as any }))
      .toThrow("/storage/bucket_arn: unknown key 'bucketArn' in /storage; allowed keys: vendorRegion, bucketName");
    expect(() => VendorOutputs.of(stack).addOutput({ auth: { vendorRegion: 'r', userPoolId: 'p', userPoolClientId: 'c', passwordPolicy: { minimumLength: 8 } as any } }))
      .toThrow("/auth/password_policy/minimum_length: unknown key 'minimumLength' in /auth/password_policy; allowed keys: minLength, requireNumbers");
  });

  test('a refused first call leaves no trace: no collector, no stack output, no file', () => {
    const { app, stack } = newStack();
    const many: Record<string, string> = {};
    for (let i = 0; i < 401; i++) {
      many[`v${i}`] = Lazy.string({ produce: () => `value${i}` });
    }
    expect(() => VendorOutputs.of(stack).addOutput({ custom: { when: new Date(0) } })).toThrow(/a Date/);
    expect(() => VendorOutputs.of(stack).addOutput({ custom: many })).toThrow(/more than 400 distinct deploy-time values/);
    expect(stack.node.tryFindChild('VendorOutputs.Collector')).toBeUndefined();
    new CfnOutput(stack, 'Plain', { value: 'x' });
    const template = app.synth().getStackByName('Backend').template;
    expect(Object.keys(template.Outputs)).toEqual(['Plain']);
    expect(template.Metadata?.[METADATA_KEY]).toBeUndefined();
    expect(fs.existsSync(path.join(outdir, 'Backend.vendor_outputs.json'))).toBe(false);
  });

  test('and writes nothing of a refused call', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { first: '1' } });
    expect(() => VendorOutputs.of(stack).addOutput({ custom: { ok: '1' }, storage: { bogus: 1 } as any })).toThrow(/unknown key 'bogus'/);
    app.synth();
    expect(writtenFile(stack).custom).toEqual({ first: '1' });
    expect(writtenFile(stack).storage).toBeUndefined();
  });
});

describe('merge', () => {
  test('merges objects deeply from several constructs', () => {
    const { app, stack } = newStack();
    const a = new Construct(stack, 'A');
    const b = new Construct(stack, 'B');
    VendorOutputs.of(a).addOutput({ geo: { vendorRegion: 'r', maps: { items: { m1: {} }, defaultName: 'm1' } } });
    VendorOutputs.of(b).addOutput({ geo: { vendorRegion: 'r', searchIndices: { items: ['p'], defaultName: 'p' } }, custom: { b: { x: '1' } } });
    VendorOutputs.of(a).addOutput({ custom: { b: { y: '2' } } });
    app.synth();
    expect(writtenFile(stack).geo).toEqual({ vendor_region: 'r', maps: { items: { m1: {} }, default: 'm1' }, search_indices: { items: ['p'], default: 'p' } });
    expect(writtenFile(stack).custom).toEqual({ b: { x: '1', y: '2' } });
  });

  test('accepts the same leaf twice with the same value (arrays compared whole)', () => {
    const { stack } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { list: ['a', 'b'], n: 0 } });
    expect(() => VendorOutputs.of(stack).addOutput({ custom: { list: ['a', 'b'], n: 0 } })).not.toThrow();
  });

  test.each([
    [false, true],
    [0, 1],
    ['', 'x'],
    [['a'], ['a', 'b']],
    ['text', { nested: 'object' }],
  ])('refuses %j then %j at the same leaf, naming both construct paths and the pointer', (first, second) => {
    const { stack } = newStack();
    VendorOutputs.of(new Construct(stack, 'First')).addOutput({ custom: { flag: first } });
    expect(() => VendorOutputs.of(new Construct(stack, 'Second')).addOutput({ custom: { flag: second } }))
      .toThrow(`Conflicting vendor outputs from Backend/Second:\n  /custom/flag: ${JSON.stringify(first)} from Backend/First conflicts with ${JSON.stringify(second)} from Backend/Second`);
  });

  test('arrays are leaves: no concatenation', () => {
    const { stack } = newStack();
    VendorOutputs.of(stack).addOutput({ notifications: { vendorRegion: 'r', vendorMessagingAppId: 'a', channels: ['SMS' as any] } });
    expect(() => VendorOutputs.of(stack).addOutput({ notifications: { vendorRegion: 'r', vendorMessagingAppId: 'a', channels: ['EMAIL' as any] } }))
      .toThrow('/notifications/channels: ["SMS"] from Backend conflicts with ["EMAIL"] from Backend');
  });

  test('a conflicting call changes nothing, not even its other keys', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { a: '1' } });
    expect(() => VendorOutputs.of(stack).addOutput({ custom: { b: '2', a: '3' } })).toThrow(/conflicts/);
    app.synth();
    expect(writtenFile(stack).custom).toEqual({ a: '1' });
  });
});

describe('ownership', () => {
  class Producer extends Construct {
    constructor(scope: Construct, id: string) {
      super(scope, id);
      VendorOutputs.of(this).claim(OutputSection.STORAGE);
      VendorOutputs.of(this).addOutput({ storage });
    }
  }

  test('the producer writes its section; others are refused with key, owner and caller named', () => {
    const { stack } = newStack();
    new Producer(stack, 'Bucket');
    const intruder = new Construct(stack, 'Intruder');
    expect(() => VendorOutputs.of(intruder).addOutput({ storage: { vendorRegion: 'r', bucketName: 'other' } }))
      .toThrow("Backend/Intruder cannot addOutput 'storage.vendor_region', 'storage.bucket_name': section 'storage' is generated from Backend/Bucket and managed by cdk-vendor-outputs");
  });

  test('constructs inside the producer may write its section', () => {
    const { stack } = newStack();
    const producer = new Producer(stack, 'Bucket');
    expect(() => VendorOutputs.of(new Construct(producer, 'Inner')).addOutput({ storage })).not.toThrow();
  });

  test('a claim after someone else wrote the section is refused, naming them', () => {
    const { stack } = newStack();
    VendorOutputs.of(new Construct(stack, 'Manual')).addOutput({ storage });
    expect(() => new Producer(stack, 'Bucket'))
      .toThrow("Backend/Bucket cannot produce section 'storage': Backend/Manual already wrote into it. A section generated from a definition has one writer: remove what that construct writes into 'storage', or do not produce it from Backend/Bucket.");
  });

  test('a second producer of the same section is refused', () => {
    const { stack } = newStack();
    new Producer(stack, 'One');
    expect(() => new Producer(stack, 'Two'))
      .toThrow("Section 'storage' is already produced by Backend/One; Backend/Two cannot produce it too.");
  });

  test('other sections stay open', () => {
    const { stack } = newStack();
    new Producer(stack, 'Bucket');
    expect(() => VendorOutputs.of(stack).addOutput({ custom: { x: '1' } })).not.toThrow();
  });
});

describe('tokens', () => {
  test('a string token in a string position is carried through a stack output and Metadata', () => {
    const { app, stack } = newStack();
    const bucket = new s3.Bucket(stack, 'Bucket');
    VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: stack.region, bucketName: bucket.bucketName } });
    app.synth();
    const template = Template.fromStack(stack);
    const outputs = template.findOutputs('*');
    const ours = Object.keys(outputs).filter((k) => k.startsWith('VendorOutputsCollectorValues0'));
    expect(ours).toHaveLength(1);
    expect(outputs[ours[0]].Value).toEqual({ 'Fn::Base64': { Ref: stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket) } });
    expect(template.toJSON().Metadata[METADATA_KEY]).toEqual({
      document: { $schema: VendorOutputsSchema.SCHEMA_ID, version: '1', storage: { vendor_region: 'eu-west-1', bucket_name: null } },
      pending: [{ pointer: '/storage/bucket_name', output: ours[0], index: 0 }],
    });
    expect(writtenFile(stack).storage.bucket_name).toBe(`<pending: Outputs.${ours[0]}[0] after deploy; run 'vendor-outputs generate'>`);
  });

  test('the same token used twice takes one slot', () => {
    const app = new App({ outdir });
    const stack = new Stack(app, 'Agnostic');
    VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: Stack.of(stack).region, bucketName: 'b' } });
    VendorOutputs.of(stack).addOutput({ notifications: { vendorRegion: Stack.of(stack).region, vendorMessagingAppId: 'a', channels: ['SMS' as any] } });
    const carried = readCarriedDocument(app.synth().getStackByName('Agnostic').template.Metadata, 'test');
    expect(carried.pending.map((p) => p.index)).toEqual([0, 0]);
  });

  test.each([
    ['an enum position', { auth: { vendorRegion: 'r', userPoolId: 'p', userPoolClientId: 'c', mfaConfiguration: Token.asString(Lazy.string({ produce: () => 'NONE' })) as MfaConfiguration } },
      /\/auth\/mfa_configuration: the value is a deploy-time token \(\$\{Token\[TOKEN\.\d+\]\}\) but must be known at synth: allowed: one of NONE, OPTIONAL, REQUIRED/],
    ['a numeric bound', { auth: { vendorRegion: 'r', userPoolId: 'p', userPoolClientId: 'c', passwordPolicy: { minLength: Lazy.number({ produce: () => 8 }) } } },
      /\/auth\/password_policy\/min_length: the value is a deploy-time token \(.*\) but must be known at synth: allowed: an integer >= 6 and <= 99/],
    ['a list', { notifications: { vendorRegion: 'r', vendorMessagingAppId: 'a', channels: Lazy.list({ produce: () => ['SMS'] }) as any } },
      /\/notifications\/channels: the value is a deploy-time token \(.*\) but must be known at synth: allowed: a list/],
    ['a list item', { auth: { vendorRegion: 'r', userPoolId: 'p', userPoolClientId: 'c', oauth: { identityProviders: [], domain: 'd', scopes: [Lazy.string({ produce: () => 'x' })], redirectSignInUri: ['a'], redirectSignOutUri: ['b'], responseType: 'code' as any } } },
      /\/auth\/oauth\/scopes\/0: a deploy-time token cannot stand in a list .* lists must be known at synth/],
    ['a number in custom', { custom: { port: Lazy.number({ produce: () => 1 }) } },
      /\/custom\/port: the value is a deploy-time token .* only string values may be deploy-time tokens/],
    ['a key', { custom: { [Lazy.string({ produce: () => 'k' })]: 'v' } },
      /\/custom: a key cannot be a deploy-time token/],
  ])('a token in %s is refused at addOutput', (_, part, message) => {
    const { stack } = newStack();
    expect(() => VendorOutputs.of(stack).addOutput(part as any)).toThrow(message);
  });

  test('string tokens anywhere in custom are carried', () => {
    const { app, stack } = newStack();
    const bucket = new s3.Bucket(stack, 'Bucket');
    VendorOutputs.of(stack).addOutput({ custom: { deep: { list: ['literal', bucket.bucketArn] } } });
    const carried = readCarriedDocument(app.synth().getStackByName('Backend').template.Metadata, 'test');
    expect(carried.pending.map((p) => p.pointer)).toEqual(['/custom/deep/list/1']);
  });

  test(`values are packed ${VALUES_PER_OUTPUT} to an output, so many tokens take few outputs`, () => {
    const { app, stack } = newStack();
    const custom: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      custom[`bucket${i}`] = new s3.Bucket(stack, `B${i}`).bucketName;
    }
    VendorOutputs.of(stack).addOutput({ custom });
    const template = app.synth().getStackByName('Backend').template;
    expect(Object.keys(template.Outputs).filter((k) => k.startsWith('VendorOutputs'))).toHaveLength(3);
  });

  test('more distinct values than 50 outputs can carry is refused with the limit explained', () => {
    const { stack } = newStack();
    const custom: Record<string, string> = {};
    for (let i = 0; i < 401; i++) {
      custom[`v${i}`] = Lazy.string({ produce: () => `value${i}` });
    }
    expect(() => VendorOutputs.of(stack).addOutput({ custom }))
      .toThrow("Backend/VendorOutputs.Collector: more than 400 distinct deploy-time values in vendor outputs (addOutput from Backend adds 401 to 0); cdk-vendor-outputs uses at most 50 of CloudFormation's 200 stack outputs");
  });

  test('the call that goes past 400 values changes nothing: the document, the outputs and a later synth are as before', () => {
    const { app, stack } = newStack();
    const first: Record<string, string> = {};
    for (let i = 0; i < 399; i++) {
      first[`v${i}`] = Lazy.string({ produce: () => `value${i}` });
    }
    VendorOutputs.of(stack).addOutput({ custom: first });
    const more = { over: { a: Lazy.string({ produce: () => 'a' }), b: Lazy.string({ produce: () => 'b' }) } };
    expect(() => VendorOutputs.of(new Construct(stack, 'Late')).addOutput({ custom: more }))
      .toThrow("Backend/VendorOutputs.Collector: more than 400 distinct deploy-time values in vendor outputs (addOutput from Backend/Late adds 2 to 399); cdk-vendor-outputs uses at most 50 of CloudFormation's 200 stack outputs. Use fewer distinct token values.");
    const template = app.synth().getStackByName('Backend').template;
    expect(Object.keys(template.Outputs)).toHaveLength(50);
    expect(writtenFile(stack).custom.over).toBeUndefined();
    expect(readCarriedDocument(template.Metadata, 'Backend').pending).toHaveLength(399);
  });

  test('output ids are namespaced: a user output of the same name and a second stack never collide', () => {
    const app = new App({ outdir });
    const stacks = ['One', 'Two'].map((id) => {
      const stack = new Stack(app, id);
      new CfnOutput(stack, 'VendorOutputsValues0', { value: 'mine' });
      new CfnOutput(stack, 'VendorOutputsCollectorValues0', { value: 'mine too' });
      VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: stack.region, bucketName: 'b' } });
      return stack;
    });
    const assembly = app.synth();
    for (const stack of stacks) {
      const outputs = assembly.getStackByName(stack.stackName).template.Outputs;
      expect(Object.keys(outputs)).toHaveLength(3);
      expect(outputs.VendorOutputsValues0.Value).toBe('mine');
      expect(outputs.VendorOutputsCollectorValues0.Value).toBe('mine too');
    }
  });

  test('deployed values with quotes, backslashes, newlines and commas rebuild to valid JSON', () => {
    const { app, stack } = newStack('Env');
    const bucket = new s3.Bucket(stack, 'Bucket');
    VendorOutputs.of(stack).addOutput({
      storage: { vendorRegion: stack.region, bucketName: bucket.bucketName },
      custom: { arn: bucket.bucketArn, region: Stack.of(stack).region },
    });
    const template = app.synth().getStackByName('Env').template;
    const nasty = 'quote " backslash \\ newline \n comma , unicode é';
    const outputs = deployedOutputs(template, (expr: any) => (expr.Ref ? nasty : expr['Fn::GetAtt'] ? 'arn:x' : 'us-east-2'));
    const rebuilt = rebuildDocument(readCarriedDocument(template.Metadata, 'Env'), outputs, 'Env');
    const text = JSON.stringify(rebuilt);
    expect(JSON.parse(text).storage.bucket_name).toBe(nasty);
    expect(JSON.parse(text).custom).toEqual({ arn: 'arn:x', region: 'eu-west-1' });
    expect(VendorOutputsSchema.validate(rebuilt)).toEqual([]);
  });
});

describe('writer', () => {
  test('an invalid document fails synth with every error, pointer, value, allowed values and contributor; nothing is written', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(new Construct(stack, 'Auth')).addOutput({
      auth: { vendorRegion: 'r', userPoolId: 'p', userPoolClientId: 'c', passwordPolicy: { minLength: 3 }, mfaConfiguration: 'SOMETIMES' as any },
    });
    VendorOutputs.of(new Construct(stack, 'Geo')).addOutput({ geo: { vendorRegion: 'r', searchIndices: { items: [], defaultName: 'x' } } });
    const message = (() => {
      try {
        app.synth();
      } catch (error) {
        return (error as Error).message;
      }
      return 'synth did not fail';
    })();
    expect(message).toBe([
      'Invalid vendor_outputs.json for stack Backend (nothing written):',
      '  /auth/password_policy/min_length: must be an integer from 6 to 99 inclusive (got 3) [from Backend/Auth]',
      '  /auth/mfa_configuration: must be one of: NONE, OPTIONAL, REQUIRED (got "SOMETIMES") [from Backend/Auth]',
      '  /geo/search_indices/items: must have at least 1 item (got []) [from Backend/Geo]',
    ].join('\n'));
    expect(fs.existsSync(path.join(outdir, 'Backend.vendor_outputs.json'))).toBe(false);
  });

  test('a missing required key names the contributors of its section', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(new Construct(stack, 'Partial')).addOutput({ auth: { vendorRegion: 'r', userPoolId: 'p' } as any });
    expect(() => app.synth()).toThrow('/auth/user_pool_client_id: is required but missing [from Backend/Partial]');
  });

  test('runs after mutating aspects, which may still add outputs', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { early: '1' } });
    class Late implements IAspect {
      public visit(node: IConstruct) {
        if (node === stack) {
          VendorOutputs.of(stack).addOutput({ custom: { late: '2' } });
        }
      }
    }
    Aspects.of(app).add(new Late(), { priority: AspectPriority.MUTATING });
    app.synth();
    expect(writtenFile(stack).custom).toEqual({ early: '1', late: '2' });
  });

  test('copies a final document to the output file', () => {
    const { app, stack } = newStack();
    const target = path.join(outdir, 'frontend', 'vendor_outputs.json');
    VendorOutputs.of(stack).addOutput({ storage });
    VendorOutputs.of(stack).writeFinalFileTo(target);
    app.synth();
    expect(fs.readFileSync(target, 'utf8')).toBe(fs.readFileSync(path.join(outdir, 'Backend.vendor_outputs.json'), 'utf8'));
  });

  test('does not copy a document with pending values, and says why', () => {
    const { app, stack } = newStack();
    const target = path.join(outdir, 'frontend', 'vendor_outputs.json');
    VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: 'r', bucketName: new s3.Bucket(stack, 'B').bucketName } });
    VendorOutputs.of(stack).writeFinalFileTo(target);
    app.synth();
    expect(fs.existsSync(target)).toBe(false);
    Annotations.fromStack(stack).hasWarning('/Backend/VendorOutputs.Collector',
      `${target} not written: 1 value(s) are known only after deploy. After 'cdk deploy', run 'vendor-outputs generate --stack Backend'. [ack: cdk-vendor-outputs:pending]`);
  });

  test('replaces an existing file atomically, leaving no temporary files', () => {
    const { app, stack } = newStack();
    fs.writeFileSync(path.join(outdir, 'Backend.vendor_outputs.json'), 'old');
    VendorOutputs.of(stack).addOutput({ storage });
    app.synth();
    expect(writtenFile(stack).storage).toEqual({ vendor_region: 'eu-west-1', bucket_name: 'my-bucket' });
    expect(fs.readdirSync(outdir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });
});

describe('writeFileAtomic', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { writeFileAtomic } = require('../../src/outputs/cdk-free/atomic-write');

  test('leaves a file that already holds the content untouched (same mtime)', () => {
    const file = path.join(outdir, 'same.json');
    writeFileAtomic(file, '{"a":1}\n');
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    fs.utimesSync(file, past, past);
    const before = fs.statSync(file).mtimeMs;
    writeFileAtomic(file, '{"a":1}\n');
    expect(fs.statSync(file).mtimeMs).toBe(before);
    writeFileAtomic(file, '{"a":2}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":2}\n');
    expect(fs.statSync(file).mtimeMs).toBeGreaterThan(before);
  });

  test('creates missing folders and leaves no temporary file when the write fails', () => {
    const nested = path.join(outdir, 'a', 'b', 'file.json');
    writeFileAtomic(nested, 'x');
    expect(fs.readFileSync(nested, 'utf8')).toBe('x');
    const dirAsTarget = path.join(outdir, 'a', 'b');
    expect(() => writeFileAtomic(dirAsTarget, 'y')).toThrow();
    expect(fs.readdirSync(path.join(outdir, 'a')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
