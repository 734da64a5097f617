/**
 * The values of API keys in the local API: the template's `Value`, else a local value (see
 * usage-plan-reader.ts), or one set with `serve --api-key NAME=VALUE`.
 */
import { listMethods } from './router';
import { usageError } from '../common/local-api-error';
import type { LocalApp } from '../model/local-app';
import { ApiKeySpec, isRestApi, RestApiSpec } from '../model/rest-api';

/** One `--api-key NAME=VALUE`. */
export interface ApiKeyValue {
  /** The key's `Name`, logical id or construct path. */
  readonly name: string;
  readonly value: string;
}

/** API Gateway takes key values of 20 to 128 characters; here also printable ASCII without spaces, as a header carries them. */
const KEY_VALUE = /^[\x21-\x7e]{20,128}$/;

export function parseApiKeyValue(text: string): ApiKeyValue {
  const eq = text.indexOf('=');
  if (eq <= 0) {
    throw usageError(`--api-key must be NAME=VALUE, NAME being the key's Name, logical id or construct path (got '${text}')`);
  }
  const name = text.slice(0, eq);
  const value = text.slice(eq + 1);
  if (!KEY_VALUE.test(value)) {
    throw usageError(`--api-key ${name}: the value must be 20 to 128 printable characters without spaces, as API Gateway requires (got ${value.length} characters)`);
  }
  return { name, value };
}

/** The app with the values of `--api-key` in place; a NAME that matches no key, or several, is a usage error. */
export function withApiKeyValues(app: LocalApp, values: readonly ApiKeyValue[]): LocalApp {
  if (values.length === 0) {
    return app;
  }
  const all = distinctKeys(app.apis.filter(isRestApi));
  const chosen = new Map<string, string>();
  const names = new Map<string, string>();
  for (const { name, value } of values) {
    const matches = all.filter((key) => key.name === name || key.logicalId === name || key.constructPath === name || keyId(key) === name);
    if (matches.length === 0) {
      throw usageError(`--api-key ${name}: no API key of a usage plan has that Name, logical id or construct path; keys: ${all.map(describe).join(', ') || '(none)'}`);
    }
    if (matches.length > 1) {
      throw usageError(`--api-key ${name}: several API keys are named so (${matches.map(describe).join(', ')}); name one by its logical id or construct path`);
    }
    chosen.set(keyId(matches[0]), value);
    names.set(keyId(matches[0]), name);
  }
  // API Gateway takes two keys with one value for the same key: a value must stay unique.
  for (const [id, value] of chosen) {
    const twin = all.find((key) => keyId(key) !== id && (chosen.get(keyId(key)) ?? key.value) === value);
    if (twin !== undefined) {
      throw usageError(`--api-key ${names.get(id)}: the value is already the value of API key ${describe(twin)}; key values must be unique`);
    }
  }
  return { ...app, apis: app.apis.map((api) => (isRestApi(api) ? withValues(api, chosen) : api)) };
}

/**
 * Start-up lines: the keys whose value is not the template's (local or set with --api-key), and the
 * stages where a method requires a key that no usage plan can give (every request there is refused).
 */
export function apiKeyLines(apis: readonly RestApiSpec[]): string[] {
  const lines: string[] = [];
  const shown = distinctKeys(apis).filter((key) => key.valueSource !== 'template');
  if (shown.length > 0) {
    lines.push(
      'API keys without a value in the template (send one in x-api-key; set it with --api-key NAME=VALUE):',
      ...shown.map((key) => `  ${describe(key)}: ${key.value}${key.valueSource === 'option' ? ' (--api-key)' : ''}${key.enabled ? '' : ' (disabled)'}`),
    );
  }
  for (const api of apis) {
    const keyed = listMethods(api.root).filter(({ method }) => method.apiKeyRequired);
    const planless = api.stages.filter((stage) => !(api.usage?.plans ?? []).some((plan) => Object.prototype.hasOwnProperty.call(plan.stages, stage)));
    if (keyed.length > 0 && planless.length > 0) {
      lines.push(`${api.name}: no usage plan gives stage(s) ${planless.join(', ')} API keys, so its methods that require one (${keyed.map(({ resource, method }) => `${method.httpMethod} ${resource.path}`).join(', ')}) refuse every request there with 403, as they do once deployed`);
    }
  }
  return lines;
}

function withValues(api: RestApiSpec, chosen: ReadonlyMap<string, string>): RestApiSpec {
  const usage = api.usage;
  if (usage === undefined || !usage.keys.some((key) => chosen.has(keyId(key)))) {
    return api;
  }
  const keys = usage.keys.map((key): ApiKeySpec => {
    const value = chosen.get(keyId(key));
    return value === undefined ? key : { ...key, value, valueSource: 'option' };
  });
  return { ...api, usage: { ...usage, keys } };
}

/** Every key once (a key of several APIs' plans appears in each). */
function distinctKeys(apis: readonly RestApiSpec[]): ApiKeySpec[] {
  const byId = new Map<string, ApiKeySpec>();
  for (const key of apis.flatMap((api) => api.usage?.keys ?? [])) {
    if (!byId.has(keyId(key))) {
      byId.set(keyId(key), key);
    }
  }
  return [...byId.values()];
}

function keyId(key: ApiKeySpec): string {
  return `${key.stackName}/${key.logicalId}`;
}

function describe(key: ApiKeySpec): string {
  const where = key.constructPath ?? keyId(key);
  return key.name === key.logicalId ? where : `${key.name} (${where})`;
}
