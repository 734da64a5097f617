/**
 * What the registry shows and what the packages must carry: the metadata of both package.json
 * files, and a NOTICE that names every third-party package compiled into lib/ with its license
 * (the list scripts/vendor-dependencies.js writes to lib/vendor/THIRD-PARTY-NOTICES.md).
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
const read = (relative: string) => fs.readFileSync(path.join(ROOT, relative), 'utf8');
const library = JSON.parse(read('package.json'));
const client = JSON.parse(read('packages/client/package.json'));

/** name -> license of every package lib/vendor/THIRD-PARTY-NOTICES.md lists (its `## a@1 (MIT), b@2 (MIT)` headings). */
function bundledPackages(): Map<string, string> {
  const notices = path.join(ROOT, 'lib', 'vendor', 'THIRD-PARTY-NOTICES.md');
  if (!fs.existsSync(notices)) {
    throw new Error('lib/vendor/THIRD-PARTY-NOTICES.md is missing: run npx projen compile');
  }
  const packages = new Map<string, string>();
  for (const heading of fs.readFileSync(notices, 'utf8').match(/^## .*$/gm) ?? []) {
    for (const [, name, license] of heading.matchAll(/(@?[^\s,@]+)@[^\s]+ \(([^)]+)\)/g)) {
      packages.set(name, license);
    }
  }
  return packages;
}

/** license -> the package names NOTICE lists under that license's heading. */
function noticeSections(): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let license: string | undefined;
  for (const line of read('NOTICE').split('\n')) {
    const heading = /^([A-Za-z0-9.-]+):$/.exec(line);
    if (heading) {
      license = heading[1];
      sections.set(license, []);
    } else if (license !== undefined && /^ {2}\S/.test(line) && !line.trim().startsWith('Copyright')) {
      const names = line.trim().replace(/:.*$/, '').split(',').map((name) => name.trim()).filter(Boolean);
      sections.get(license)!.push(...names);
    }
  }
  return sections;
}

test('NOTICE names each bundled package under its license, and no other', () => {
  const bundled = bundledPackages();
  expect(bundled.size).toBeGreaterThan(20);
  const listed = new Map<string, string>();
  for (const [license, names] of noticeSections()) {
    for (const name of names) {
      listed.set(name, license);
    }
  }
  expect(Object.fromEntries([...listed].sort())).toEqual(Object.fromEntries([...bundled].sort()));
});

test('the library: repository, homepage, bugs, keywords CDK users search, engines, a public package with provenance', () => {
  expect(library).toMatchObject({
    license: 'Apache-2.0',
    repository: { type: 'git', url: 'https://github.com/maintainers/cdk-vendor-outputs.git' },
    homepage: 'https://github.com/maintainers/cdk-vendor-outputs#readme',
    bugs: { url: 'https://github.com/maintainers/cdk-vendor-outputs/issues' },
    engines: { node: '>= 20.0.0' },
    publishConfig: { access: 'public', provenance: true },
  });
  expect(library.keywords).toEqual(expect.arrayContaining(['cdk', 'awscdk', 'aws-cdk']));
  // The version is 0.0.0 between releases: the release task bumps it in its own working copy only.
  expect(library.version).toBe('0.0.0');
  expect(fs.existsSync(path.join(ROOT, 'LICENSE'))).toBe(true);
  // npm packs NOTICE: .npmignore is a deny list that does not name it.
  expect(read('.npmignore').split('\n')).not.toContain('/NOTICE');
});

test('the client: the same repository, license, version line and registry settings', () => {
  expect(client).toMatchObject({
    name: 'cdk-vendor-outputs-client',
    version: '0.0.0',
    license: library.license,
    repository: { ...library.repository, directory: 'packages/client' },
    bugs: library.bugs,
    engines: library.engines,
    publishConfig: library.publishConfig,
  });
  expect(client.keywords).toEqual(expect.arrayContaining(['cdk', 'awscdk']));
});

test('the jsii languages are configured with the names their users expect', () => {
  expect(library.jsii.targets).toEqual({
    python: { distName: 'cdk-vendor-outputs', module: 'cdk_vendor_outputs' },
    java: { package: 'io.github.maintainers.cdkvendoroutputs', maven: { groupId: 'io.github.maintainers', artifactId: 'cdk-vendor-outputs' } },
    dotnet: { namespace: 'CdkVendorOutputs', packageId: 'CdkVendorOutputs' },
    go: { moduleName: 'github.com/maintainers/cdk-vendor-outputs-go', packageName: 'cdkvendoroutputs' },
  });
});

test('the README can be the Python module\'s docstring: it has no three single quotes in a row', () => {
  // jsii-pacmak writes the README, unescaped, between r''' and ''' at the top of the Python
  // package's __init__.py; three single quotes would end the string and the module would not load.
  const lines = read('README.md').split('\n').map((line, i) => `${i + 1}: ${line}`);
  expect(lines.filter((line) => line.includes("'''"))).toEqual([]);
});
