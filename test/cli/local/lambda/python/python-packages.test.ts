/** Where boto3 comes from for Python functions, and the scan for what a function imports. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { missingPackages, runtimeImportsIn, virtualenvSitePackages } from '../../../../../src/cli/local/lambda/python/python-packages';

describe('runtimeImportsIn', () => {
  test('import and from-import of boto3 and botocore, not other names or text', () => {
    expect(runtimeImportsIn('import json\nimport boto3\nfrom botocore.exceptions import ClientError\n')).toEqual(['boto3', 'botocore']);
    expect(runtimeImportsIn('import boto3_helpers\n# boto3 is nice\nx = "import boto3"\n')).toEqual([]);
  });
});

describe('virtualenvSitePackages', () => {
  test('the site-packages of .venv and venv, the one of the interpreter\'s version first; none without a virtualenv', () => {
    const app = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-venv-'));
    expect(virtualenvSitePackages(app, '3.11')).toEqual([]);
    for (const version of ['3.10', '3.11']) {
      fs.mkdirSync(path.join(app, '.venv', 'lib', `python${version}`, 'site-packages'), { recursive: true });
    }
    expect(virtualenvSitePackages(app, '3.11')).toEqual([
      path.join(app, '.venv', 'lib', 'python3.11', 'site-packages'),
      path.join(app, '.venv', 'lib', 'python3.10', 'site-packages'),
    ]);
    expect(virtualenvSitePackages(undefined)).toEqual([]);
  });
});

describe('missingPackages', () => {
  test('names what does not import with the interpreter, the path given and the code folder', () => {
    const code = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-code-'));
    const venv = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-site-'));
    fs.mkdirSync(path.join(code, 'vendored_pkg'));
    fs.writeFileSync(path.join(code, 'vendored_pkg', '__init__.py'), '');
    fs.mkdirSync(path.join(venv, 'venv_pkg'));
    fs.writeFileSync(path.join(venv, 'venv_pkg', '__init__.py'), '');
    expect(missingPackages('python3', venv, code, ['vendored_pkg', 'venv_pkg', 'json', 'surely_not_installed_pkg'])).toEqual(['surely_not_installed_pkg']);
    expect(missingPackages('python3', '', undefined, [])).toEqual([]);
  });
});
