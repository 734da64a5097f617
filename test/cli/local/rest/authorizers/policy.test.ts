import { evaluatePolicy, wildcardMatch } from '../../../../../src/cli/local/rest/authorizers/policy';

const ARN = 'arn:aws:execute-api:us-east-1:123456789012:Api1234/prod/GET/items/42';
const statement = (Effect: string, Resource: unknown, Action: unknown = 'execute-api:Invoke') => ({ Effect, Action, Resource });
const policy = (...Statement: unknown[]) => ({ Version: '2012-10-17', Statement });

describe('Lambda authorizer policy evaluation', () => {
  test('an Allow on the exact method ARN allows; an Allow on another ARN does not (implicit deny)', () => {
    expect(evaluatePolicy(policy(statement('Allow', ARN)), ARN)).toEqual({ decision: 'allow' });
    expect(evaluatePolicy(policy(statement('Allow', ARN.replace('/GET/', '/POST/'))), ARN)).toEqual({ decision: 'implicit-deny' });
  });

  test('no statement at all is an implicit deny', () => {
    expect(evaluatePolicy(policy(), ARN)).toEqual({ decision: 'implicit-deny' });
  });

  test('an explicit Deny wins over an Allow, in either order; a Deny on another ARN leaves the Allow', () => {
    expect(evaluatePolicy(policy(statement('Allow', '*'), statement('Deny', ARN)), ARN)).toEqual({ decision: 'explicit-deny' });
    expect(evaluatePolicy(policy(statement('Deny', ARN), statement('Allow', '*')), ARN)).toEqual({ decision: 'explicit-deny' });
    expect(evaluatePolicy(policy(statement('Allow', '*'), statement('Deny', `${ARN}/more`)), ARN)).toEqual({ decision: 'allow' });
  });

  test('`*` in Resource spans slashes; `?` stands for exactly one character', () => {
    expect(evaluatePolicy(policy(statement('Allow', 'arn:aws:execute-api:us-east-1:123456789012:Api1234/*')), ARN).decision).toBe('allow');
    expect(evaluatePolicy(policy(statement('Allow', 'arn:aws:execute-api:us-east-1:123456789012:Api1234/prod/GET/items/4?')), ARN).decision).toBe('allow');
    expect(evaluatePolicy(policy(statement('Allow', 'arn:aws:execute-api:us-east-1:123456789012:Api1234/prod/GET/items/?')), ARN).decision).toBe('implicit-deny');
    expect(evaluatePolicy(policy(statement('Allow', 'arn:aws:execute-api:us-east-1:123456789012:Other/*')), ARN).decision).toBe('implicit-deny');
  });

  test('Resource is compared with case; Action without case; another action does not apply', () => {
    expect(evaluatePolicy(policy(statement('Allow', ARN.replace('items', 'ITEMS'))), ARN).decision).toBe('implicit-deny');
    expect(evaluatePolicy(policy(statement('Allow', ARN, 'Execute-API:invoke')), ARN).decision).toBe('allow');
    expect(evaluatePolicy(policy(statement('Allow', ARN, 'execute-api:*')), ARN).decision).toBe('allow');
    expect(evaluatePolicy(policy(statement('Allow', ARN, 'execute-api:ManageConnections')), ARN).decision).toBe('implicit-deny');
    expect(evaluatePolicy(policy(statement('Deny', ARN, 's3:GetObject'), statement('Allow', ARN)), ARN).decision).toBe('allow');
  });

  test('lists of actions and resources, and a single Statement object, are read', () => {
    expect(evaluatePolicy({ Statement: statement('Allow', ['arn:other', ARN], ['s3:*', 'execute-api:Invoke']) }, ARN).decision).toBe('allow');
  });

  test('malformed documents are reported, not treated as a deny', () => {
    expect(evaluatePolicy('nope', ARN).decision).toBe('malformed');
    expect(evaluatePolicy({ Version: '2012-10-17' }, ARN).decision).toBe('malformed');
    expect(evaluatePolicy(policy(statement('Maybe', ARN)), ARN).decision).toBe('malformed');
    expect(evaluatePolicy(policy({ Effect: 'Allow', Action: 'execute-api:Invoke' }), ARN).decision).toBe('malformed');
    expect(evaluatePolicy(policy(statement('Allow', [])), ARN).decision).toBe('malformed');
  });

  test('wildcard patterns treat regular expression characters literally', () => {
    expect(wildcardMatch('a.b', 'a.b')).toBe(true);
    expect(wildcardMatch('a.b', 'axb')).toBe(false);
    expect(wildcardMatch('a(b)+', 'a(b)+')).toBe(true);
  });
});

describe('wildcard matching is linear in the method ARN a client controls', () => {
  /** The matcher the local API had before: a backtracking RegExp. */
  function regexWildcardMatch(pattern: string, value: string): boolean {
    const source = pattern.replace(/[.+^${}()|[\]\\*?]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
    return new RegExp(`^${source}$`, 's').test(value);
  }

  test.each([
    ['*', ''],
    ['*', 'anything/at/all'],
    ['', ''],
    ['', 'x'],
    ['a?c', 'abc'],
    ['a?c', 'ac'],
    ['a*c', 'abbbc'],
    ['a*c', 'abbbd'],
    ['*/public/*', 'x/public/'],
    ['*/public/*', 'x/publicy'],
    ['**a', 'ba'],
    ['a*b*c', 'aXbYbZc'],
    ['a*b*c', 'aXbYbZ'],
    ['a.c', 'abc'],
    ['a+(c)', 'a+(c)'],
    ['*?', ''],
    ['*?', 'x'],
    ['x*', 'x\ny'],
  ])('%j against %j: as the regular expression answered', (pattern, value) => {
    expect(wildcardMatch(pattern, value)).toBe(regexWildcardMatch(pattern, value));
  });

  test.each([
    ['arn:aws:execute-api:*:*:*/*/*/public/*', true],
    ['arn:aws:execute-api:*:*:*/*/*/public/*/b', false],
    ['arn:aws:execute-api:*:*:*/*/*/public/*a/*a/*a/*a/*a/*a/*b', false],
  ])('%j against /public/ + "a/" x 50,000 answers at once (%s)', (pattern, expected) => {
    const arn = `arn:aws:execute-api:us-east-1:123456789012:Api1234/prod/GET/public/${'a/'.repeat(50_000)}`;
    const started = process.hrtime.bigint();
    expect(wildcardMatch(pattern, arn)).toBe(expected);
    expect(evaluatePolicy(policy(statement('Allow', pattern)), arn).decision).toBe(expected ? 'allow' : 'implicit-deny');
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });
});
