/**
 * The local-API options, declared once for serve, sandbox and test-invoke: parsed to one typed
 * object, checked in the order serve reports them, with their help rows.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { UsageError } from '../../src/cli/command';
import { LocalApiError } from '../../src/cli/local/common/local-api-error';
import { helpRows, LOCAL_API_HELP, LOCAL_API_OPTIONS, parseLocalApiOptions } from '../../src/cli/local-api-options';

describe('parseLocalApiOptions', () => {
  test.each([
    [{ 'from-stack': 'Backend' }, { kind: 'stack', stack: 'Backend' }],
    [{ 'outputs-file': 'outputs.json' }, { kind: 'outputs-file', file: 'outputs.json', stack: undefined }],
    [{ 'outputs-file': 'outputs.json', 'stack': ['Api'] }, { kind: 'outputs-file', file: 'outputs.json', stack: 'Api' }],
  ])('%j: where deployed values come from', (values, deployedSource) => {
    expect(parseLocalApiOptions(values, {}).deployedSource).toEqual(deployedSource);
  });

  test.each([
    [{ 'from-stack': 'A', 'outputs-file': 'o.json' }, 'give either --from-stack NAME or --outputs-file FILE, not both'],
    [{ 'from-stack': '' }, '--from-stack needs the name of a deployed stack'],
    [{ 'outputs-file': ' ' }, '--outputs-file needs a file (the JSON of cdk deploy --outputs-file)'],
  ])('%j is a usage error: %s', (values, message) => {
    expect(() => parseLocalApiOptions(values, {})).toThrow(UsageError);
    expect(() => parseLocalApiOptions(values, {})).toThrow(message);
  });

  test('defaults: every stack, port 3000 on 127.0.0.1, no credentials, no keys, no env-vars', () => {
    expect(parseLocalApiOptions({}, {})).toEqual({
      stacks: [],
      port: 3000,
      host: '127.0.0.1',
      quiet: false,
      credentials: undefined,
      allowUnsigned: false,
      apiKeys: [],
      envVars: undefined,
      jwks: undefined,
      hostRuntimes: false,
    });
  });

  test('every option read into the typed object', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-api-options-'));
    try {
      const envVarsFile = path.join(dir, 'env.json');
      fs.writeFileSync(envVarsFile, JSON.stringify({ Parameters: { STAGE: 'local' } }));
      const settings = parseLocalApiOptions({
        'stack': ['A', 'B'],
        'port': '0',
        'host': '[::1]',
        'quiet': true,
        'credentials': 'AKID:secret',
        'allow-unsigned': true,
        'api-key': ['partner=partner-key-0123456789abcdef'],
        'env-vars': envVarsFile,
        'jwks': 'jwks.json',
        'node': 'host',
      }, {});
      expect(settings).toMatchObject({
        hostRuntimes: true,
        stacks: ['A', 'B'],
        port: 0,
        host: '::1',
        quiet: true,
        credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
        allowUnsigned: true,
        apiKeys: [{ name: 'partner', value: 'partner-key-0123456789abcdef' }],
        jwks: 'jwks.json',
      });
      expect(settings.envVars).toMatchObject({ file: envVarsFile, parameters: { STAGE: 'local' } });
      expect(settings.envVars?.perFunction.size).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('credentials from the environment when the option is absent', () => {
    expect(parseLocalApiOptions({}, { VENDOR_OUTPUTS_CREDENTIALS: 'K:S' }).credentials).toEqual({ accessKeyId: 'K', secretAccessKey: 'S' });
    expect(parseLocalApiOptions({}, { AWS_ACCESS_KEY_ID: 'A', AWS_SECRET_ACCESS_KEY: 'B' }).credentials).toEqual({ accessKeyId: 'A', secretAccessKey: 'B' });
  });

  test('errors come in serve\'s order: the port first', () => {
    const parse = () => parseLocalApiOptions({ port: 'x', host: '', credentials: 'nocolon' }, {});
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow("--port must be an integer from 0 to 65535 (got 'x')");
  });

  test.each([
    [{ credentials: 'nocolon' }, '--credentials must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)'],
    [{ 'api-key': ['k=short'] }, '--api-key k: the value must be 20 to 128 printable characters without spaces, as API Gateway requires (got 5 characters)'],
    [{ 'env-vars': 'no-such-file.json' }, '--env-vars no-such-file.json: cannot read the file (ENOENT)'],
  ])('%j: a usage error of the local API', (values, message) => {
    const parse = () => parseLocalApiOptions(values, {});
    expect(parse).toThrow(LocalApiError);
    expect(parse).toThrow(message);
  });
});

test('each option has its help row', () => {
  expect(Object.keys(LOCAL_API_HELP).sort()).toEqual(Object.keys(LOCAL_API_OPTIONS).sort());
  expect(helpRows([LOCAL_API_HELP.credentials])).toEqual([
    '  --credentials KEY:SECRET  Key pair that IAM-authorized methods accept (SigV4, service execute-api).',
    '                            Default: $VENDOR_OUTPUTS_CREDENTIALS (KEY:SECRET), else',
    '                            $AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY when both are set',
  ]);
});
