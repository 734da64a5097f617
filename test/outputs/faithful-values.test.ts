import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Fn, Lazy, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { VendorOutputs } from '../../src';

let outdir: string;
beforeEach(() => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-faithful-'));
});
afterEach(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
});

function newStack() {
  const app = new App({ outdir });
  const stack = new Stack(app, 'Backend', { env: { region: 'eu-west-1' } });
  return { app, stack, caller: new Construct(stack, 'Caller') };
}

function synthText(app: App): string {
  app.synth();
  return fs.readFileSync(path.join(outdir, 'Backend.vendor_outputs.json'), 'utf8');
}

const ALLOWED = 'allowed: strings, finite numbers, booleans, null, arrays and plain objects';

describe('keys named like Object.prototype members', () => {
  const names = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

  test.each(names)('custom.%s is written like any other key, and merges', (key) => {
    const { app, stack, caller } = newStack();
    VendorOutputs.of(caller).addOutput({ custom: { [key]: 'first', nested: { [key]: { a: 1 } } } });
    VendorOutputs.of(stack).addOutput({ custom: { nested: { [key]: { b: 2 } } } });
    expect(JSON.parse(synthText(app)).custom).toEqual({ [key]: 'first', nested: { [key]: { a: 1, b: 2 } } });
  });

  test.each(names)('custom.%s written twice with another value is a conflict naming both paths', (key) => {
    const { stack, caller } = newStack();
    VendorOutputs.of(caller).addOutput({ custom: { [key]: 'one' } });
    expect(() => VendorOutputs.of(stack).addOutput({ custom: { [key]: 'two' } }))
      .toThrow(`Conflicting vendor outputs from Backend:\n  /custom/${key}: "one" from Backend/Caller conflicts with "two" from Backend`);
  });

  test('__proto__ as an own key (JSON.parse, Object.defineProperty) reaches the file', () => {
    const { app, caller } = newStack();
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}');
    const defined: Record<string, unknown> = {};
    Object.defineProperty(defined, '__proto__', { value: 'x', enumerable: true, configurable: true, writable: true });
    VendorOutputs.of(caller).addOutput({ custom: { parsed, defined } });
    const text = synthText(app);
    expect(text).toContain('"parsed": {\n      "__proto__": {\n        "polluted": true\n      },\n      "plain": 1\n    }');
    expect(text).toContain('"defined": {\n      "__proto__": "x"\n    }');
    expect(({} as any).polluted).toBeUndefined();
  });

  test('a __proto__ key warns that the template Metadata (and so generate) cannot carry it', () => {
    const { app, stack, caller } = newStack();
    VendorOutputs.of(caller).addOutput({ custom: JSON.parse('{"__proto__": "x"}') });
    synthText(app);
    Annotations.fromStack(stack).hasWarning('/Backend/VendorOutputs.Collector',
      "A key named __proto__ is written to the synth-time file, but aws-cdk-lib drops it from the template Metadata, so 'vendor-outputs generate' cannot rebuild it after deploy. Rename the key. [ack: cdk-vendor-outputs:proto-key]");
  });

  test('no such warning for a __proto__ string value', () => {
    const { app, stack, caller } = newStack();
    VendorOutputs.of(caller).addOutput({ custom: { key: '__proto__', other: '"__proto__": 1' } });
    synthText(app);
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('__proto__'))).toEqual([]);
  });

  test('a __proto__ key in a geo map name reaches the file', () => {
    const { app, caller } = newStack();
    const items = JSON.parse('{"__proto__": {"style": "s"}}');
    VendorOutputs.of(caller).addOutput({ geo: { vendorRegion: 'r', maps: { items, defaultName: '__proto__' } } });
    expect(synthText(app)).toContain('"items": {\n        "__proto__": {\n          "style": "s"\n        }\n      }');
  });

  test.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])('addOutput({ %s }) is an unknown section, not a conflict', (key) => {
    const { caller } = newStack();
    const part = JSON.parse(`{"${key}": {"a": 1}}`);
    expect(() => VendorOutputs.of(caller).addOutput(part))
      .toThrow(`Invalid addOutput from Backend/Caller:\n  /${key}: unknown section '${key}'; allowed sections: analytics, auth, data, geo, notifications, storage, custom`);
  });

  test('constructor inside a typed section is an unknown key', () => {
    const { caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput({ storage: JSON.parse('{"vendorRegion": "r", "bucketName": "b", "constructor": "x"}') }))
      .toThrow("/storage/constructor: unknown key 'constructor' in /storage; allowed keys: vendorRegion, bucketName");
  });
});

describe('values that JSON would change or drop are refused at addOutput, with pointer, construct path and what is allowed', () => {
  const cycle: Record<string, unknown> = { name: 'loop' };
  cycle.self = cycle;
  class Custom {
    public readonly x = 1;
  }
  test.each([
    ['a Date', new Date('2024-02-01T00:00:00Z'), '/custom/value: a Date (2024-02-01T00:00:00.000Z) cannot be written to vendor_outputs.json'],
    ['an invalid Date', new Date('nope'), '/custom/value: a Date (Invalid Date) cannot be written'],
    ['a Map', new Map([['a', 1]]), '/custom/value: a Map (1 entries) cannot be written'],
    ['a Set', new Set([1, 2]), '/custom/value: a Set (2 items) cannot be written'],
    ['a RegExp', /ab+c/i, '/custom/value: a RegExp (/ab+c/i) cannot be written'],
    ['NaN', NaN, '/custom/value: NaN cannot be written'],
    ['Infinity', Infinity, '/custom/value: Infinity cannot be written'],
    ['-Infinity', -Infinity, '/custom/value: -Infinity cannot be written'],
    ['a Symbol', Symbol('s'), '/custom/value: a Symbol (Symbol(s)) cannot be written'],
    ['a function', function handler() {}, '/custom/value: a function (handler) cannot be written'],
    ['a BigInt', BigInt(12), '/custom/value: a BigInt (12n) cannot be written'],
    ['a class instance', new Custom(), '/custom/value: an instance of Custom cannot be written'],
    ['a boxed string', Object('text'), '/custom/value: an instance of String cannot be written'],
    ['a Buffer', Buffer.from('x'), '/custom/value: an instance of Buffer cannot be written'],
    ['an object made from another object', Object.create({ inherited: 1 }), '/custom/value: an object with a custom prototype cannot be written'],
    ['an object made from a prototype-free object', Object.create(Object.create(null)), '/custom/value: an object with a custom prototype cannot be written'],
  ])('%s', (_, value, message) => {
    const { caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput({ custom: { value } }))
      .toThrow(`Invalid addOutput from Backend/Caller:\n  ${message}`);
    expect(() => VendorOutputs.of(caller).addOutput({ custom: { value } })).toThrow(ALLOWED);
  });

  test('a circular value names where the cycle closes', () => {
    const { caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput({ custom: { deep: { cycle } } }))
      .toThrow(`Invalid addOutput from Backend/Caller:\n  /custom/deep/cycle/self: a circular reference (back to /custom/deep/cycle) cannot be written to vendor_outputs.json; ${ALLOWED}`);
  });

  test('the same object twice (not a cycle) is fine', () => {
    const { app, caller } = newStack();
    const shared = { a: 1 };
    VendorOutputs.of(caller).addOutput({ custom: { one: shared, two: [shared, shared] } });
    expect(JSON.parse(synthText(app)).custom).toEqual({ one: { a: 1 }, two: [{ a: 1 }, { a: 1 }] });
  });

  test('undefined and empty slots in a list, and Symbol keys', () => {
    const { caller } = newStack();
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [1, , 3];
    expect(() => VendorOutputs.of(caller).addOutput({ custom: { list: [1, undefined], sparse, keyed: { [Symbol('k')]: 1 } } }))
      .toThrow([
        'Invalid addOutput from Backend/Caller:',
        `  /custom/list/1: undefined cannot be written to vendor_outputs.json; ${ALLOWED}`,
        `  /custom/sparse/1: an empty array slot cannot be written to vendor_outputs.json; ${ALLOWED}`,
        '  /custom/keyed: a Symbol key (Symbol(k)) cannot be written to vendor_outputs.json; object keys must be strings',
      ].join('\n'));
  });

  test('in a typed section too: a Date as a region, NaN in a list, a function in a typed list', () => {
    const { caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput({
      storage: { vendorRegion: new Date(0) as any, bucketName: 'b' },
      auth: { vendorRegion: 'r', userPoolId: 'p', userPoolClientId: 'c', passwordPolicy: { minLength: NaN } },
      notifications: { vendorRegion: 'r', vendorMessagingAppId: 'a', channels: [(() => 'SMS') as any] },
      data: { vendorRegion: 'r', url: 'u', defaultAuthorizationType: 'API_KEY' as any, authorizationTypes: [], modelIntrospection: { when: new Date(0) } },
    })).toThrow([
      'Invalid addOutput from Backend/Caller:',
      `  /storage/vendor_region: a Date (1970-01-01T00:00:00.000Z) cannot be written to vendor_outputs.json; ${ALLOWED}`,
      `  /auth/password_policy/min_length: NaN cannot be written to vendor_outputs.json; ${ALLOWED}`,
      `  /notifications/channels/0: a function (anonymous) cannot be written to vendor_outputs.json; ${ALLOWED}`,
      `  /data/model_introspection/when: a Date (1970-01-01T00:00:00.000Z) cannot be written to vendor_outputs.json; ${ALLOWED}`,
    ].join('\n'));
  });

  test('a value of the wrong type in a typed section is still checked inside', () => {
    const { caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput({ storage: { vendorRegion: { when: new Map() } as any, bucketName: 'b' } }))
      .toThrow(`/storage/vendor_region/when: a Map (0 entries) cannot be written to vendor_outputs.json; ${ALLOWED}`);
  });

  test('a refused value merges nothing and writes nothing: a function never reaches the file', () => {
    const { app, stack, caller } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { kept: 'yes' } });
    expect(() => VendorOutputs.of(caller).addOutput({ custom: { ok: 'fine', fn: () => 1 } as any })).toThrow(/a function \(fn\) cannot be written/);
    expect(JSON.parse(synthText(app)).custom).toEqual({ kept: 'yes' });
  });

  test('addOutput takes an object', () => {
    const { stack, caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput([{ custom: {} }] as any))
      .toThrow('Invalid addOutput from Backend/Caller:\n  /: addOutput takes an object whose keys are sections (got an array)');
    expect(() => VendorOutputs.of(caller).addOutput('custom' as any))
      .toThrow('Invalid addOutput from Backend/Caller:\n  /: addOutput takes an object whose keys are sections (got "custom")');
    expect(() => VendorOutputs.of(caller).addOutput(new Map() as any))
      .toThrow('Invalid addOutput from Backend/Caller:\n  /: addOutput takes an object whose keys are sections (got a Map (0 entries))');
    expect(stack.node.tryFindChild('VendorOutputs.Collector')).toBeUndefined();
  });

  test('tokens stay accepted: string tokens, Lazy and Fn results in string positions, anywhere in custom', () => {
    const { app, stack, caller } = newStack();
    const bucket = new s3.Bucket(stack, 'Bucket');
    VendorOutputs.of(caller).addOutput({
      storage: { vendorRegion: Lazy.string({ produce: () => 'eu-west-1' }), bucketName: bucket.bucketName },
      custom: { joined: Fn.join('-', ['a', bucket.bucketName]), list: [bucket.bucketArn], plain: 1.5, none: null, yes: true },
    });
    const file = JSON.parse(synthText(app));
    expect(file.storage.bucket_name).toMatch(/^<pending: /);
    expect(file.custom.joined).toMatch(/^<pending: /);
    expect(file.custom.list[0]).toMatch(/^<pending: /);
    expect(file.custom).toMatchObject({ plain: 1.5, none: null, yes: true });
  });
});

describe('typed sections take camelCase property names only', () => {
  test.each([
    [{ storage: { vendorRegion: 'r', bucket_name: 'c' } }, "/storage/bucket_name: 'bucket_name' is the file's spelling; addOutput takes the camelCase property 'bucketName' in /storage"],
    [{ storage: { vendorRegion: 'r', bucketName: 'b', bucket_name: 'c' } }, "/storage/bucket_name: 'bucket_name' is the file's spelling; addOutput takes the camelCase property 'bucketName' in /storage"],
    [{ auth: { vendorRegion: 'r', userPoolId: 'p', userPoolClientId: 'c', passwordPolicy: { min_length: 8 } } }, "/auth/password_policy/min_length: 'min_length' is the file's spelling; addOutput takes the camelCase property 'minLength' in /auth/password_policy"],
    [{ analytics: { vendor_messaging: { vendorRegion: 'r', appId: 'a' } } }, "/analytics/vendor_messaging: 'vendor_messaging' is the file's spelling; addOutput takes the camelCase property 'vendorMessaging' in /analytics"],
    [{ geo: { vendorRegion: 'r', search_indices: { items: ['a'], defaultName: 'a' } } }, "/geo/search_indices: 'search_indices' is the file's spelling; addOutput takes the camelCase property 'searchIndices' in /geo"],
    [{ geo: { vendorRegion: 'r', maps: { items: { m: {} }, default: 'm' } } }, "/geo/maps/default: 'default' is the file's spelling; addOutput takes the camelCase property 'defaultName' in /geo/maps"],
  ])('%j is refused naming the camelCase key', (part, message) => {
    const { caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput(part as any)).toThrow(`Invalid addOutput from Backend/Caller:\n  ${message}`);
  });

  test('keys in custom, modelIntrospection and map names pass through unchanged', () => {
    const { app, caller } = newStack();
    VendorOutputs.of(caller).addOutput({
      custom: { api_name: 'x', camelCase: { snake_case: 1 } },
      data: { vendorRegion: 'r', url: 'u', defaultAuthorizationType: 'API_KEY' as any, authorizationTypes: ['API_KEY' as any], modelIntrospection: { model_name: { fieldName: 1 } } },
      geo: { vendorRegion: 'r', maps: { items: { my_map: {}, otherMap: {} }, defaultName: 'my_map' } },
    });
    const file = JSON.parse(synthText(app));
    expect(file.custom).toEqual({ api_name: 'x', camelCase: { snake_case: 1 } });
    expect(file.data.model_introspection).toEqual({ model_name: { fieldName: 1 } });
    expect(Object.keys(file.geo.maps.items)).toEqual(['my_map', 'otherMap']);
  });
});

describe('nesting depth', () => {
  /** `{ a: { a: ... 'x' } }` with `levels` objects. */
  function nested(levels: number): Record<string, unknown> {
    let value: unknown = 'x';
    for (let i = 0; i < levels; i++) {
      value = { a: value };
    }
    return value as Record<string, unknown>;
  }

  test('values nesting as deep as allowed are written', () => {
    const { app, caller } = newStack();
    VendorOutputs.of(caller).addOutput({ custom: nested(100) });
    let depth = 0;
    for (let v: any = JSON.parse(synthText(app)).custom; typeof v === 'object'; v = v.a) {
      depth++;
    }
    expect(depth).toBe(100);
  });

  test.each([101, 20_000])('%i levels below custom are refused with the pointer, not a RangeError', (levels) => {
    const { app, caller } = newStack();
    expect(() => VendorOutputs.of(caller).addOutput({ custom: nested(levels) }))
      .toThrow(/Invalid addOutput from Backend\/Caller:\n {2}\/custom\/a\/a\/a.*…: nested more than 100 levels deep; values may nest at most 100 levels$/);
    // The refused call changed nothing: no collector, so no file.
    app.synth();
    expect(fs.existsSync(path.join(outdir, 'Backend.vendor_outputs.json'))).toBe(false);
  });
});
