import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { importLoops } = require('../../scripts/import-loops') as { importLoops(dir: string): string[][] };

const ROOT = path.join(__dirname, '..', '..');

test('src/ has no import loop, type-only imports included', () => {
  expect(importLoops(path.join(ROOT, 'src'))).toEqual([]);
});

describe('on a tree made for it', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-loops-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
  };

  test('a loop closed by a type-only import is found, with every file on it', () => {
    write({
      'pipeline/integrate.ts': "import { run } from '../integrations/lambda';\nexport interface MethodResponse { status: number }\nexport const step = run;\n",
      'integrations/lambda.ts': "import { helper } from './helper';\nexport const run = helper;\n",
      'integrations/helper.ts': "import type { MethodResponse } from '../pipeline/integrate';\nexport const helper = (r: MethodResponse) => r;\n",
      'contract.ts': 'export interface Unrelated { a: 1 }\n',
    });
    expect(importLoops(dir)).toEqual([['integrations/helper.ts', 'integrations/lambda.ts', 'pipeline/integrate.ts']]);
  });

  test('require(), import() and folder index imports are followed; a tree without a loop has none', () => {
    write({
      'a.ts': "export const b = () => require('./b');\n",
      'b/index.ts': "export const c = () => import('../c');\n",
      'c.ts': 'export const leaf = 1;\n',
    });
    expect(importLoops(dir)).toEqual([]);
    fs.appendFileSync(path.join(dir, 'c.ts'), "import '../' ;\nimport { b } from './a';\nexport const back = b;\n");
    expect(importLoops(dir)).toEqual([['a.ts', 'b/index.ts', 'c.ts']]);
  });
});
