import { readEsbuildCommand, shellWords } from '../../../../src/cli/sandbox/reload/esbuild-command';

describe('shellWords', () => {
  test.each([
    ['npx --no-install esbuild --bundle "/a b/x.ts"', ['npx', '--no-install', 'esbuild', '--bundle', '/a b/x.ts']],
    ["--define:K='\"v\"' --x", ['--define:K="v"', '--x']],
    ['--banner:js="a \\"q\\" \\\\ b"', ['--banner:js=a "q" \\ b']],
    ['a && b', ['a', '&&', 'b']],
    ['--external:@aws-sdk/*', ['--external:@aws-sdk/*']],
  ])('%s', (command, words) => {
    expect(shellWords(command)).toEqual(words);
  });

  test.each([
    'echo $HOME', 'a | b', 'a; b', 'a > f', '"unclosed', "'unclosed", 'echo "$(x)"', 'ls *', 'a & b',
  ])('%s is more than plain words: undefined', (command) => {
    expect(shellWords(command)).toBeUndefined();
  });
});

describe('readEsbuildCommand', () => {
  const command = 'npx --no-install esbuild --bundle "/app/lambda/items.ts" --target=node20 --platform=node --format=cjs '
    + '--outfile="/app/cdk.out/bundling-temp-1/index.js" --minify --sourcemap=inline --sources-content=false '
    + '--external:@aws-sdk/* --external:pg --loader:.png=file --define:process.env.STAGE="\\"dev\\"" --log-level=warning --keep-names '
    + '--tsconfig="/app/tsconfig.json" --metafile="/app/cdk.out/bundling-temp-1/index.meta.json" --banner:js="// hi" --footer:js="// bye" '
    + '--main-fields=module,main --inject:"/app/shim.js"';

  test('every flag NodejsFunction writes, as build options', () => {
    expect(readEsbuildCommand(command)).toEqual({
      outfile: '/app/cdk.out/bundling-temp-1/index.js',
      options: {
        entryPoints: ['/app/lambda/items.ts'],
        bundle: true,
        target: ['node20'],
        platform: 'node',
        format: 'cjs',
        outfile: '/app/cdk.out/bundling-temp-1/index.js',
        minify: true,
        sourcemap: 'inline',
        sourcesContent: false,
        external: ['@aws-sdk/*', 'pg'],
        loader: { '.png': 'file' },
        define: { 'process.env.STAGE': '"dev"' },
        logLevel: 'warning',
        keepNames: true,
        tsconfig: '/app/tsconfig.json',
        banner: { js: '// hi' },
        footer: { js: '// bye' },
        mainFields: ['module', 'main'],
        inject: ['/app/shim.js'],
      },
    });
  });

  test.each([
    ['esbuild --bundle x.ts --outfile=o/index.js', 'esbuild'],
    ['/app/node_modules/.bin/esbuild --bundle x.ts --outfile=o/index.js', 'a path to esbuild'],
    ['yarn run esbuild --bundle x.ts --outfile=o/index.js', 'yarn run'],
    ['pnpm exec esbuild --bundle x.ts --outfile=o/index.js', 'pnpm exec'],
  ])('%s (%s) is read', (text) => {
    expect(readEsbuildCommand(text)?.options.entryPoints).toEqual(['x.ts']);
  });

  test.each([
    ['echo before && npx esbuild --bundle x.ts --outfile=o/index.js', 'a command hook before'],
    ['npx esbuild --bundle x.ts --outfile=o/index.js && npm ci', 'nodeModules installs after'],
    ['npx esbuild --bundle x.ts --outfile=o/index.js --splitting', 'a flag the reader does not know'],
    ['npx esbuild --bundle x.ts y.ts --outfile=o/index.js', 'two entry points'],
    ['npx esbuild --bundle x.ts', 'no outfile'],
    ['docker run esbuild --bundle x.ts --outfile=o/index.js', 'another runner'],
    ['tsc x.ts', 'no esbuild'],
  ])('%s (%s): undefined, rebuilt by a synth', (text) => {
    expect(readEsbuildCommand(text)).toBeUndefined();
  });
});
