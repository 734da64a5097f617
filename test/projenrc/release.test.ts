/**
 * The release as `npx projen release` runs it (bump, build, unbump), without the build in between
 * (4 minutes, and the build has its own checks): in a temporary git repository with this
 * repository's package.json and tasks, a release tag and conventional commits after it, projen's
 * bump task writes the version, the changelog entry and the tag name; the client package packed
 * then carries the same version; unbump restores 0.0.0. The tasks and workflows that wrap these
 * steps are checked as projen wrote them.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';

const ROOT = path.join(__dirname, '..', '..');
const PROJEN = path.join(ROOT, 'node_modules', '.bin', 'projen');
const tasks = JSON.parse(fs.readFileSync(path.join(ROOT, '.projen', 'tasks.json'), 'utf8')).tasks;
const workflow = (name: string) => parse(fs.readFileSync(path.join(ROOT, '.github', 'workflows', `${name}.yml`), 'utf8'));
const steps = (task: string) => tasks[task].steps.map((s: { spawn?: string; exec?: string; execArgs?: string[] }) => s.spawn ?? s.exec ?? s.execArgs?.join(' '));

let repo: string;

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, CI: undefined, GIT_AUTHOR_NAME: 'Release Test', GIT_AUTHOR_EMAIL: 'release@test.example', GIT_COMMITTER_NAME: 'Release Test', GIT_COMMITTER_EMAIL: 'release@test.example' },
  });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

const read = (relative: string) => fs.readFileSync(path.join(repo, relative), 'utf8');

function commit(message: string, file: string) {
  fs.writeFileSync(path.join(repo, file), message);
  run('git', ['add', '-A']);
  run('git', ['commit', '-q', '-m', message]);
}

function copy(relative: string) {
  fs.cpSync(path.join(ROOT, relative), path.join(repo, relative), { recursive: true });
}

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'release-'));
  for (const relative of ['package.json', '.projen/tasks.json', 'scripts/package-client.js', 'src/client', 'packages/client', 'LICENSE']) {
    copy(relative);
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(repo, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(repo, '.gitignore'), '/node_modules\n/dist/\n');
  run('git', ['init', '-q', '-b', 'main']);
  commit('feat: the first release', 'one.txt');
  run('git', ['tag', 'v0.1.0']);
  commit('feat: a feature after it', 'two.txt');
  commit('fix: a fix after it', 'three.txt');
  run(PROJEN, ['bump']);
});

afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));


test('bump: the next version from the commits since the last tag, its tag name and changelog entry', () => {
  // commit-and-tag-version below 1.0.0: a feature or a fix bumps the patch version.
  expect(read('dist/version.txt')).toBe('0.1.1');
  expect(read('dist/releasetag.txt')).toBe('v0.1.1');
  expect(JSON.parse(read('package.json')).version).toBe('0.1.1');
  const changelog = read('dist/changelog.md');
  expect(changelog).toMatch(/^## \[0\.1\.1\]\(https:\/\/github\.com\/maintainers\/cdk-vendor-outputs\/compare\/v0\.1\.0\.\.\.v0\.1\.1\)/m);
  expect(changelog).toMatch(/### Features\n\n\* a feature after it \(/);
  expect(changelog).toMatch(/### Bug Fixes\n\n\* a fix after it \(/);
  expect(changelog).not.toContain('the first release');
});

test('the client package packed after the bump has the library\'s version', () => {
  run(process.execPath, ['scripts/package-client.js']);
  const tarball = path.join(repo, 'dist', 'client', 'cdk-vendor-outputs-client-0.1.1.tgz');
  const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json']));
  expect(manifest).toMatchObject({ name: 'cdk-vendor-outputs-client', version: '0.1.1', license: 'Apache-2.0' });
  const files = run('tar', ['-tzf', tarball]).split('\n').filter(Boolean).sort();
  expect(files).toEqual(['package/LICENSE', 'package/README.md', 'package/index.d.mts', 'package/index.d.ts', 'package/index.js', 'package/index.mjs', 'package/package.json']);
});

test('unbump restores the version the repository keeps (0.0.0)', () => {
  const copyOfRepo = fs.mkdtempSync(path.join(os.tmpdir(), 'release-unbump-'));
  try {
    fs.cpSync(repo, copyOfRepo, { recursive: true, verbatimSymlinks: true });
    const result = spawnSync(PROJEN, ['unbump'], { cwd: copyOfRepo, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(copyOfRepo, 'package.json'), 'utf8')).version).toBe('0.0.0');
  } finally {
    fs.rmSync(copyOfRepo, { recursive: true, force: true });
  }
});

/** The version bump computes in a copy of the tagged repository with `messages` committed after the tag. */
function bumpAfter(messages: string[]): string {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'release-after-'));
  const previous = repo;
  try {
    fs.cpSync(repo, other, { recursive: true, verbatimSymlinks: true });
    repo = other;
    fs.rmSync(path.join(repo, 'dist'), { recursive: true, force: true });
    run('git', ['checkout', '-q', '--', 'package.json']);
    run('git', ['reset', '-q', '--hard', 'v0.1.0']);
    messages.forEach((message, i) => commit(message, `after-${i}.txt`));
    run(PROJEN, ['bump']);
    return `${read('dist/version.txt')} ${read('dist/releasetag.txt')}`;
  } finally {
    repo = previous;
    fs.rmSync(other, { recursive: true, force: true });
  }
}

test('a breaking change bumps the minor version below 1.0.0', () => {
  expect(bumpAfter(['feat!: a breaking change'])).toBe('0.2.0 v0.2.0');
});

test('commits that are neither features nor fixes release nothing: the version stays the tagged one, whose tag exists', () => {
  // The release workflow publishes only when the tag does not exist yet (tag_exists).
  expect(bumpAfter(['chore: tooling', 'docs: wording'])).toBe('0.1.0 v0.1.0');
});

test('the release task is bump, build, unbump, and the build neither bumps nor publishes', () => {
  expect(steps('release')).toEqual(['rm -fr dist', 'bump', 'build', 'unbump', 'git diff --ignore-space-at-eol --exit-code']);
  expect(steps('build')).toEqual(['default', 'pre-compile', 'compile', 'post-compile', 'test', 'package']);
  // Locally and in CI alike: the JavaScript package, the client, then the consumer test. The other
  // languages are packed by package:<language> in their own workflow jobs.
  expect(steps('package')).toEqual(['package:js', 'package:client', 'test:consumer']);
  expect(steps('package-all')).toEqual(['package:js', 'package:java', 'package:python', 'package:dotnet', 'package:go']);
});

test('the workflows: pull requests run the README\'s test command; a release publishes both packages with provenance', () => {
  const build = workflow('build').jobs.build.steps.map((s: { run?: string }) => s.run).filter(Boolean);
  expect(build.slice(0, 2)).toEqual(['npm ci', 'npx projen build']);
  expect(Object.keys(workflow('build').on)).toContain('pull_request');
  // Debian as root, as on the machine the build is measured on: the browser tests need /usr/bin/chromium.
  expect(workflow('build').jobs.build.container).toEqual({ image: 'node:20-bookworm' });
  expect(workflow('release').jobs.release.container).toEqual({ image: 'node:20-bookworm' });
  // The Python wheel of a pull request is installed and imported, and that must happen.
  const python = workflow('build').jobs['package-python'].steps.map((s: { run?: string }) => s.run);
  expect(python.slice(-2)).toEqual(['mv .repo/dist dist', 'node .repo/scripts/python-package-check.js --require-import --wheel dist/python/*.whl']);

  const release = workflow('release');
  expect(release.jobs.release.steps.map((s: { run?: string }) => s.run)).toContain('npx projen release');
  const publish = (job: string) => release.jobs[job].steps.find((s: { name?: string }) => s.name === 'Release');
  expect(publish('release_npm').run).toBe("npx '-p' 'publib@latest' 'publib-npm'");
  expect(publish('release_npm_client').run).toBe('npx -p publib@latest publib-npm dist/client');
  for (const job of ['release_npm', 'release_npm_client']) {
    expect(publish(job).env).toMatchObject({ NPM_CONFIG_PROVENANCE: 'true', NPM_TOKEN: '${{ secrets.NPM_TOKEN }}' });
    expect(release.jobs[job].permissions['id-token']).toBe('write');
    expect(release.jobs[job].if).toBe(release.jobs.release_npm.if);
  }
  expect(Object.keys(release.jobs).sort()).toEqual(['release', 'release_github', 'release_github_assets', 'release_golang', 'release_maven', 'release_npm', 'release_npm_client', 'release_nuget', 'release_pypi']);
  // Both tarballs on the GitHub release, under the names the README's Install section gives.
  const upload = release.jobs.release_github_assets.steps.find((s: { name?: string }) => s.name === 'Upload').run;
  expect(upload).toContain('gh release upload "$tag" cdk-vendor-outputs-$version.tgz dist/client/cdk-vendor-outputs-client-$version.tgz');
  expect(Object.keys(workflow('upgrade-main').jobs)).toEqual(['upgrade', 'pr']);
});
