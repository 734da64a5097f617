/**
 * `serve --write-outputs DIR`: a vendor_outputs.json whose REST endpoint values point to the local
 * server, so a frontend under development talks to it.
 *
 * The document comes from the stack's template Metadata (see src/outputs/carriage.ts): its literal
 * part as synthesized, and each pending value's CloudFormation expression (the slot of its stack
 * output) evaluated against the local environment: `Ref` of a REST API is its local id, `Ref` of a
 * stage its name, the execute-api URL becomes `http://HOST:PORT/<stage>/`, `AWS::Region` the
 * stack's region (or us-east-1). An HTTP API served locally (its logical id among the addresses)
 * gets the same treatment: its `$default` stage's URL becomes `http://HOST:PORT/`, a named
 * stage's `http://HOST:PORT/<stage>/`; one not served keeps its deployed value or stays pending. Deployed values (`--outputs-file`, `--from-stack`) answer the other
 * references they know. A value that is known neither way keeps its pending marker: never a
 * stand-in or a value the template only suggests.
 */
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomic } from '../../../outputs/cdk-free/atomic-write';
import { CarriedDocument, METADATA_KEY, PendingEntry, pendingMarker, readCarriedDocument, SLOT_SEPARATOR } from '../../../outputs/cdk-free/carriage';
import { assemblyOutputsFileName } from '../../../outputs/cdk-free/file-names';
import { failuresNaming, readJsonFile } from '../../../outputs/cdk-free/json-file';
import { displayPointer, setAtPointer } from '../../../outputs/cdk-free/json-pointer';
import { validateDocument } from '../../../outputs/cdk-free/validation';
import { ClientConfigFormat, clientConfigFormat } from '../../outputs-format/client-config-format';
import { LocalApiError } from '../common/local-api-error';
import { StackSpec } from '../model/local-app';
import type { DeployedReferences } from '../template/deployed-values';
import { IntrinsicEnvironment, pseudoParameters, tryEvaluateString } from '../template/intrinsics';

/** Where each local API is served. */
export interface LocalApiAddress {
  readonly apiId: string;
  /** `http://HOST:PORT` (no trailing slash). */
  readonly origin: string;
}

/** The result of building the local document. */
export interface LocalOutputs {
  readonly stack: StackSpec;
  readonly document: Record<string, unknown>;
  /** Pointers of the pending values evaluated locally. */
  readonly resolved: string[];
  /** Pointers left pending (not evaluable locally). */
  readonly unresolved: string[];
}

/** Stacks of the assembly that carry a vendor_outputs.json. */
export function stacksWithOutputs(stacks: readonly StackSpec[], assemblyDir: string): StackSpec[] {
  return stacks.filter((s) => s.template.Metadata?.[METADATA_KEY] !== undefined || fs.existsSync(synthFile(assemblyDir, s)));
}

function synthFile(assemblyDir: string, stack: StackSpec): string {
  return path.join(assemblyDir, assemblyOutputsFileName(stack.artifactId));
}

/** Builds the local document of one stack; `deployed` is what the user passed of its deployed values. */
export function buildLocalOutputs(
  stack: StackSpec, assemblyDir: string, apis: readonly LocalApiAddress[], deployed?: DeployedReferences,
): LocalOutputs {
  const carriedRaw = stack.template.Metadata?.[METADATA_KEY];
  if (carriedRaw === undefined) {
    // Nothing was pending at synth: the synthesized file is final.
    const file = synthFile(assemblyDir, stack);
    return { stack, document: readJsonFile(file, failuresNaming(file, LocalApiError)) as Record<string, unknown>, resolved: [], unresolved: [] };
  }
  let carried: CarriedDocument;
  try {
    carried = readCarriedDocument(stack.template.Metadata, `stack ${stack.stackName}`);
  } catch (error) {
    throw new LocalApiError((error as Error).message);
  }
  const document = JSON.parse(JSON.stringify(carried.document));
  const env = localEnvironment(stack, deployed, apis);
  const resolved: string[] = [];
  const unresolved: string[] = [];
  for (const entry of carried.pending) {
    const value = evaluatePending(stack, entry, env);
    if (value === undefined) {
      setAtPointer(document, entry.pointer, pendingMarker(entry));
      unresolved.push(entry.pointer);
    } else {
      setAtPointer(document, entry.pointer, localizeUrl(value, apis));
      resolved.push(entry.pointer);
    }
  }
  return { stack, document, resolved, unresolved };
}

/**
 * Validates and writes `DIR/vendor_outputs.json` (or the file of another client config format)
 * atomically; returns the file path. `option` names the option that chose DIR in messages.
 */
export function writeLocalOutputs(outputs: LocalOutputs, dir: string, format: ClientConfigFormat = clientConfigFormat('json'), option = '--write-outputs'): string {
  const violations = validateDocument(outputs.document);
  if (violations.length > 0) {
    throw new LocalApiError(`the local vendor_outputs.json of stack ${outputs.stack.stackName} is not valid, so it was not written:\n${violations.map((v) => `  ${displayPointer(v.pointer)}: ${v.message}`).join('\n')}`);
  }
  const file = path.resolve(dir, format.fileName);
  const content = format.render(outputs.document);
  try {
    writeFileAtomic(file, content);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'the directory is not writable'
      : code === 'ENOENT' ? 'the directory does not exist'
        : code === 'ENOTDIR' ? 'it is not a directory'
          : (error as Error).message;
    throw new LocalApiError(`${option}: cannot write ${file}: ${why}${code ? ` (${code})` : ''}`, 'server');
  }
  return file;
}

/** The expression of a pending value: slot `index` of its output's `Fn::Join` of `Fn::Base64`s. */
export function pendingExpression(template: Record<string, any>, entry: PendingEntry): unknown {
  const value = template.Outputs?.[entry.output]?.Value;
  const join = value?.['Fn::Join'];
  let slot: unknown;
  if (Array.isArray(join) && join[0] === SLOT_SEPARATOR && Array.isArray(join[1])) {
    slot = join[1][entry.index];
  } else if (entry.index === 0) {
    slot = value;
  }
  const base64 = (slot as Record<string, unknown> | undefined)?.['Fn::Base64'];
  return base64;
}

function evaluatePending(stack: StackSpec, entry: PendingEntry, env: IntrinsicEnvironment): string | undefined {
  const expression = pendingExpression(stack.template, entry);
  if (expression === undefined) {
    return undefined;
  }
  return tryEvaluateString(expression, env);
}

/**
 * Strict: what the local server really is (API ids, stage names, pseudo parameters), then the
 * deployed values passed; nothing else. An HTTP API (`AWS::ApiGatewayV2::Api`) has its local id,
 * its logical id, only when the server serves it (it is in `apis`): else its id and endpoint are
 * the deployed ones, or stay pending, never a URL that no server answers.
 */
function localEnvironment(stack: StackSpec, deployed: DeployedReferences | undefined, apis: readonly LocalApiAddress[]): IntrinsicEnvironment {
  const resources: Record<string, any> = stack.template.Resources ?? {};
  const pseudo = { ...pseudoParameters(stack.region, stack.stackName), ...(deployed?.pseudo ?? {}) };
  const typeOf = (id: string): unknown => (Object.hasOwn(resources, id) ? resources[id]?.Type : undefined);
  const servedHttpApi = (id: string) => typeOf(id) === HTTP_API_TYPE && apis.some((a) => a.apiId === id);
  return {
    pseudo,
    ref: (id) => {
      const r = Object.hasOwn(resources, id) ? resources[id] : undefined;
      if (r?.Type === 'AWS::ApiGateway::RestApi' || servedHttpApi(id)) {
        return id;
      }
      if (r?.Type === 'AWS::ApiGateway::Stage' && typeof r.Properties?.StageName === 'string') {
        return r.Properties.StageName;
      }
      return deployed?.refs.get(id);
    },
    getAtt: (id, attribute) => {
      if (typeOf(id) === 'AWS::ApiGateway::RestApi' && attribute === 'RootResourceId') {
        return `${id}-root`;
      }
      if (attribute === 'ApiEndpoint' && servedHttpApi(id)) {
        // HttpApi.apiEndpoint: the API's URL without a stage, which localizeUrl turns into the local origin.
        return `https://${id}.execute-api.${pseudo['AWS::Region']}.${pseudo['AWS::URLSuffix'] ?? 'amazonaws.com'}`;
      }
      return deployed?.attributes.get(`${id}.${attribute}`);
    },
  };
}

const HTTP_API_TYPE = 'AWS::ApiGatewayV2::Api';

/** `https://<api id>.execute-api.<region>.<suffix>/<rest>` of a local API → `http://HOST:PORT/<rest>`. */
export function localizeUrl(value: string, apis: readonly LocalApiAddress[]): string {
  const m = /^https:\/\/([^./]+)\.execute-api\.[a-z0-9-]+\.amazonaws\.com(?:\.cn)?(\/.*)?$/.exec(value);
  if (!m) {
    return value;
  }
  const api = apis.find((a) => a.apiId === m[1]);
  return api === undefined ? value : `${api.origin}${m[2] ?? '/'}`;
}
