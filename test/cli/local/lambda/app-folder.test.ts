/**
 * Where the app folder (and so its node_modules) is.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { appFolderOf } from '../../../../src/cli/local/lambda/app-folder';

let dir: string;

beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-env-unit-')); });

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the app folder holds cdk.json above the assembly, else it is the current directory', () => {
  const app = path.join(dir, 'app');
  fs.mkdirSync(path.join(app, 'cdk.out'), { recursive: true });
  fs.writeFileSync(path.join(app, 'cdk.json'), '{}');
  expect(appFolderOf(path.join(app, 'cdk.out'), '/elsewhere')).toBe(app);
  expect(appFolderOf(path.join(dir, 'loose'), '/elsewhere')).toBe('/elsewhere');
});
