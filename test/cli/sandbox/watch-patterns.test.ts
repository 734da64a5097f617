import { alwaysExcluded } from '../../../src/cli/sandbox/cdk-project';
import { globToRegExp, WatchFilter } from '../../../src/cli/sandbox/watch-patterns';

/** cdk init's TypeScript template, with the exclusions cdk watch always adds. */
const TEMPLATE = new WatchFilter({
  include: ['**'],
  exclude: ['README.md', 'cdk*.json', '**/*.d.ts', '**/*.js', 'tsconfig.json', 'package*.json', 'yarn.lock', 'node_modules', 'test', ...alwaysExcluded('cdk.out')],
});

describe('watch patterns (cdk watch semantics)', () => {
  test.each([
    ['lib/stack.ts', true],
    ['bin/app.ts', true],
    ['lambda/handler/index.ts', true],
    ['lib/stack.js', false],
    ['lib/stack.d.ts', false],
    ['cdk.json', false],
    ['cdk.context.json', false],
    ['README.md', false],
    ['docs/README.md', true],
    ['test/stack.test.ts', false],
    ['node_modules/x/index.ts', false],
    ['lib/node_modules/x.ts', false],
    ['cdk.out/manifest.json', false],
    ['.git/index', false],
    ['lib/.stack.ts.swp', false],
    ['.cdk.out.sandbox-1-2/manifest.json', false],
  ])('%s watched: %s', (file, watched) => {
    expect(TEMPLATE.matches(file)).toBe(watched);
  });

  test('an include naming a folder covers what is inside it', () => {
    const filter = new WatchFilter({ include: ['lib', 'bin/*.ts'], exclude: [] });
    expect(filter.matches('lib/deep/stack.ts')).toBe(true);
    expect(filter.matches('bin/app.ts')).toBe(true);
    expect(filter.matches('bin/sub/app.ts')).toBe(false);
    expect(filter.matches('other.ts')).toBe(false);
  });

  test('a nested output folder is excluded where it is', () => {
    const filter = new WatchFilter({ include: ['**'], exclude: alwaysExcluded('build/cdk.out') });
    expect(filter.matches('build/cdk.out/x.json')).toBe(false);
    expect(filter.matches('build/other.ts')).toBe(true);
    expect(filter.excluded('build/cdk.out')).toBe(true);
  });

  test.each([
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'a/b/c.ts', true],
    ['*.ts', 'a/b.ts', false],
    ['src/**/x.js', 'src/x.js', true],
    ['src/**/x.js', 'src/a/b/x.js', true],
    ['a?.ts', 'ab.ts', true],
    ['a?.ts', 'a/.ts', false],
    ['file(1).ts', 'file(1).ts', true],
    ['./lib/', 'lib', true],
  ])('glob %s on %s: %s', (glob, file, expected) => {
    expect(globToRegExp(glob).test(file)).toBe(expected);
  });
});
