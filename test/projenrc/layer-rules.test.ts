/**
 * The layer rules of .projenrc.ts (projenrc/layer-rules.ts) as ESLint runs them in the build: each
 * deliberately wrong import below is linted as if it stood in a real file of src/, and fails.
 */
import * as path from 'path';
import { ESLint, loadESLint } from 'eslint';

const ROOT = path.join(__dirname, '..', '..');
const LAYER_RULES = ['import/no-restricted-paths', 'import/no-cycle', '@typescript-eslint/no-restricted-imports'];

let eslint: Pick<ESLint, 'lintText'>;
beforeAll(async () => {
  // The build lints with the .eslintrc.json that projen writes (ESLINT_USE_FLAT_CONFIG=false).
  const LegacyESLint = await loadESLint({ useFlatConfig: false });
  // Without type information: the layer rules read imports only, and a TypeScript program costs 30 s.
  eslint = new LegacyESLint({
    cwd: ROOT,
    fix: false,
    overrideConfig: {
      parserOptions: { projectService: false, project: null },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/return-await': 'off' },
    },
  });
});

/** The layer-rule messages ESLint reports for `code` standing at `file` (relative to the repository). */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => LAYER_RULES.includes(m.ruleId ?? '')).map((m) => `${m.ruleId}: ${m.message}`);
}

// First: import/no-cycle computes the import graph's loops once per process, from the first file it
// lints; linted later, the made-up import would be judged against the graph of the files on disk.
test('an import that closes a loop fails the lint', async () => {
  // json-scan.ts imports describe-character.ts: importing it back closes a loop.
  const errors = await layerErrors('src/cli/validate/describe-character.ts', "import { scanJson } from './json-scan';\nexport const x = scanJson;\n");
  expect(errors.join('\n')).toMatch(/import\/no-cycle: Dependency cycle detected/);
});

test.each([
  ['the outputs core imports a construct', 'src/outputs/merge.ts', "import { RestItemsApi } from '../constructs/rest-items-api';\nexport const x = RestItemsApi;\n",
    /the outputs core knows nothing of constructs, the CLI or the client helper/],
  ['src/outputs/cdk-free imports a module that loads aws-cdk-lib', 'src/outputs/cdk-free/file-names.ts', "import { VendorOutputs } from '../vendor-outputs';\nexport const x = VendorOutputs;\n",
    /src\/outputs\/cdk-free\/ is what the CLI loads/],
  ['a command imports the outputs core beyond cdk-free', 'src/cli/validate.ts', "import { VendorOutputsWriter } from '../outputs/writer';\nexport const x = VendorOutputsWriter;\n",
    /the CLI takes from src\/outputs only src\/outputs\/cdk-free\//],
  ['a command imports aws-cdk-lib', 'src/cli/serve.ts', "import { App } from 'aws-cdk-lib';\nexport const x = App;\n",
    /starts without aws-cdk-lib and constructs/],
  ['the local API imports a construct', 'src/cli/local/server/server.ts', "import { GeoResources } from '../../../constructs/geo-resources';\nexport const x = GeoResources;\n",
    /the CLI never loads the constructs/],
  ['the local API imports the command layer', 'src/cli/local/server/server.ts', "import { parseOptions } from '../../command';\nexport const x = parseOptions;\n",
    /the local API does not import the command layer/],
  ['the model imports an API kind', 'src/cli/local/model/local-app.ts', "import { route } from '../rest/router';\nexport const x = route;\n",
    /src\/cli\/local\/model\/ sits below/],
  ['the Lambda runtime imports the server', 'src/cli/local/lambda/concurrency.ts', "import { requestId } from '../server/server';\nexport const x = requestId;\n",
    /src\/cli\/local\/lambda\/ sits below/],
  ['the client helper imports the library', 'src/client/index.ts', "import { OUTPUTS_FILE_NAME } from '../outputs/cdk-free/file-names';\nexport const x = OUTPUTS_FILE_NAME;\n",
    /the client helper is a package of its own/],
])('%s fails the lint', async (_what, file, code, message) => {
  const errors = await layerErrors(file, code);
  expect(errors.join('\n')).toMatch(message);
});

test('imports that respect the layers pass', async () => {
  expect(await layerErrors('src/cli/local/rest/router.ts', "import { ownGet } from '../common/own-record';\nexport const x = ownGet;\n")).toEqual([]);
  expect(await layerErrors('src/cli/validate.ts', "import { validateDocument } from '../outputs/cdk-free/validation';\nexport const x = validateDocument;\n")).toEqual([]);
});
