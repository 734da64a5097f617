/**
 * The layers of src/ as lint rules: which folder may import which. Each layer imports only from the
 * layers below it (DESIGN.md, "The four layers"); test/layer-rules.test.ts shows that a wrong import fails.
 */

/** One `import/no-restricted-paths` zone: files under `target` may not import from `from`. */
interface Zone {
  readonly target: string | string[];
  readonly from: string | string[];
  readonly except?: string[];
  readonly message: string;
}

const LOCAL = './src/cli/local';

/**
 * The local API's folders, bottom first. A folder may import the folders before it, never those
 * after it: the model and the small common helpers at the bottom; Cognito and SigV4 checks; the Lambda
 * runtime (which the template reader asks whether a function's runtime runs here); the template reader;
 * the contract of an API kind; the API kinds (rest/, then http/, which reuses REST's proxy-response and outbound helpers, then function-url/, which reuses http/'s payload 2.0 and CORS, and websocket/, which reuses HTTP's authorizer reading); the server at the top. The files at the
 * top of local/ (the local-API service, the registry of API kinds) wire the folders together.
 */
export const LOCAL_API_LAYERS = ['common', 'model', 'auth', 'lambda', 'template', 'api-kind', 'rest', 'http', 'function-url', 'websocket', 'server'] as const;

function localApiZones(): Zone[] {
  return LOCAL_API_LAYERS.slice(0, -1).map((layer, index) => ({
    target: `${LOCAL}/${layer}`,
    // Globs throughout: the rule takes a zone's `from` as all globs or none.
    from: [...LOCAL_API_LAYERS.slice(index + 1).map((above) => `${LOCAL}/${above}/**`), `${LOCAL}/*.ts`],
    message: `src/cli/local/${layer}/ sits below ${LOCAL_API_LAYERS.slice(index + 1).join(', ')} and the local API service: move the shared type or helper down instead`,
  }));
}

/** Zones between the library's layers and inside the CLI. */
export function layerZones(): Zone[] {
  return [
    {
      target: './src/outputs',
      from: ['./src/constructs', './src/cli', './src/client'],
      message: 'the outputs core knows nothing of constructs, the CLI or the client helper',
    },
    {
      target: './src/outputs/cdk-free',
      from: './src/outputs',
      except: ['./cdk-free'],
      message: 'src/outputs/cdk-free/ is what the CLI loads: it may not import modules that load aws-cdk-lib',
    },
    {
      target: './src/constructs',
      from: ['./src/cli', './src/client'],
      message: 'constructs know nothing of the CLI or the client helper',
    },
    {
      target: './src/cli',
      from: './src/outputs',
      except: ['./cdk-free'],
      message: 'the CLI takes from src/outputs only src/outputs/cdk-free/ (modules that do not load aws-cdk-lib)',
    },
    {
      target: './src/cli',
      from: ['./src/constructs', './src/index.ts'],
      message: 'the CLI never loads the constructs (nor aws-cdk-lib through them)',
    },
    {
      target: './src/client',
      from: ['./src/outputs', './src/constructs', './src/cli'],
      message: 'the client helper is a package of its own with no dependency on the library',
    },
    {
      target: LOCAL,
      from: './src/cli/*.ts',
      message: 'the local API does not import the command layer: throw a LocalApiError and let the command turn it into an exit code',
    },
    ...localApiZones(),
  ];
}

/** Packages that load the CDK: the CLI and src/outputs/cdk-free/ must start without them. */
export const CDK_PACKAGES = {
  patterns: [{
    group: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
    message: 'this module is loaded by the CLI, which starts without aws-cdk-lib and constructs',
    allowTypeImports: false,
  }],
};
