/**
 * Frontend helper: the REST section of the client library's configuration, built from
 * vendor_outputs.json. Dependency-free (no aws-cdk-lib, no Node built-ins), so a browser bundle
 * can import it, from the frontend package or from the construct library's subpath:
 *
 *   import { toRestConfig } from 'cdk-vendor-outputs-client';   // frontends: no aws-cdk-lib
 *   import { toRestConfig } from 'cdk-vendor-outputs/client';   // code that has the library
 *
 * The `custom` section holds the APIs a backend exposes as API entries
 * (`{ api_name, api_endpoint, api_kind, vendor_region, api_id, api_stage }`), in either place:
 * - flat, one API: `custom.api_name`, `custom.api_endpoint`, ..., as the spec's example and
 *   `RestItemsApi` without `outputsKey` write it;
 * - one object per API: `custom.<key>.{api_name, api_endpoint, ...}`, as
 *   `VendorOutputs.addRestApi`/`addHttpApi` and `RestItemsApi` with `outputsKey` write it.
 * Both may appear together. `api_kind` is `rest` or `http` (both are called the same way by the
 * client library's REST API); an entry without it is a REST API (files written before it existed).
 */

/** One REST API entry of the client library's configuration. */
export interface RestApiConfig {
  /** Invoke URL of the API, including the stage (`custom.api_endpoint`, unchanged). */
  readonly endpoint: string;
  /** Region of the API. */
  readonly region: string;
}

/** The REST section: REST API entries keyed by API name (`custom.api_name`). */
export interface RestConfig {
  [apiName: string]: RestApiConfig;
}

/** Options of {@link toRestConfig}. */
export interface RestConfigOptions {
  /**
   * Region for an API entry that records none (the spec's minimal shape has only `api_id`,
   * `api_endpoint` and `api_name`) and whose endpoint is not an `execute-api` URL.
   * @default - such an entry is an error
   */
  readonly defaultRegion?: string;

  /**
   * Accept a file whose `custom` section holds no API entry, and return `{}` for it: for a
   * frontend that also runs against backends without APIs.
   * @default false - such a file is a RestConfigError that says what an entry looks like
   */
  readonly allowNoApis?: boolean;
}

/** vendor_outputs.json does not describe its REST APIs in a usable way. */
export class RestConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestConfigError';
  }
}

/** Keys that mark an object of `custom` as an API entry. */
const API_KEYS = ['api_name', 'api_endpoint', 'api_id', 'api_kind'];

/** The `api_kind`s the REST section takes: APIs called with a method, a path and a body. */
const API_KINDS = ['rest', 'http', 'function_url'];

/** The `api_kind`s of entries that are APIs, but not ones called with a method and a path: left out. */
const OTHER_KINDS = ['websocket'];

/** What an API entry looks like, for the error about a file without one. */
const EXPECTED_ENTRY = 'an API entry in custom: an object with api_name and api_endpoint (the invoke URL including the stage), '
  + 'and api_kind (rest, http or function_url) and vendor_region, at custom.<key> (as VendorOutputs.addRestApi, addHttpApi, addFunctionUrl and RestItemsApi with outputsKey write it) '
  + 'or flat in custom (as RestItemsApi without outputsKey writes it)';

/** How the synth-time file and the sandbox's file mark a value known only after deploy. */
const PENDING_PREFIX = '<pending: ';

/** `https://<id>.execute-api.<region>.amazonaws.com[.cn]/...` */
const EXECUTE_API_HOST = /^[a-z0-9]+\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/;

/**
 * Builds the REST section (`{ [apiName]: { endpoint, region } }`) from the parsed
 * vendor_outputs.json (a JSON string is parsed first).
 *
 * Every API entry of `custom` is read (`api_kind` `rest`, `http`, `function_url`, or none) but
 * WebSocket APIs (`websocket`), which are not called with a method and a path. The
 * region of each API is its `vendor_region`; else the region in an
 * `https://<id>.execute-api.<region>.amazonaws.com` endpoint; else `options.defaultRegion`.
 * Throws {@link RestConfigError} naming the entry for a missing or empty `api_name` or
 * `api_endpoint`, an endpoint still pending until deploy, an endpoint that is not an http(s) URL, an `api_kind` other than `rest`, `http`,
 * `function_url` or `websocket`, a region that cannot be found, and two APIs with the same name; and, unless
 * `options.allowNoApis`, for a file whose `custom` holds no API entry, saying what one looks like
 * and naming the keys that look like a URL.
 */
export function toRestConfig(outputs: unknown, options: RestConfigOptions = {}): RestConfig {
  const file = typeof outputs === 'string' ? parse(outputs) : outputs;
  if (!isObject(file)) {
    throw new RestConfigError(`expected the parsed vendor_outputs.json object (got ${describe(file)})`);
  }
  const custom = file.custom;
  if (custom !== undefined && !isObject(custom)) {
    throw new RestConfigError(`custom must be an object (got ${describe(custom)})`);
  }
  const all = apiEntries(custom ?? {});
  const entries = all.filter(([, entry]) => !OTHER_KINDS.includes(entry.api_kind as string));
  if (entries.length === 0) {
    if (options.allowNoApis === true) {
      return {};
    }
    throw new RestConfigError(noApisMessage(custom, all.map(([location]) => location)));
  }
  const rest: RestConfig = {};
  const where: Record<string, string> = {};
  for (const [location, entry] of entries) {
    const name = requiredString(entry, 'api_name', location);
    const endpoint = requiredString(entry, 'api_endpoint', location);
    if (endpoint.startsWith(PENDING_PREFIX)) {
      throw new RestConfigError(`${location}.api_endpoint is known only after deploy (${endpoint}): build the file from the deployed stack `
        + "('vendor-outputs generate'), or serve the API locally ('vendor-outputs sandbox', with --from-stack or --outputs-file for an API it does not serve)");
    }
    if (!/^https?:\/\/[^/\s]+/i.test(endpoint)) {
      throw new RestConfigError(`${location}.api_endpoint must be an http(s) URL (got ${describe(endpoint)})`);
    }
    checkKind(entry, location);
    if (Object.prototype.hasOwnProperty.call(where, name)) {
      throw new RestConfigError(`two REST APIs are named '${name}' (${where[name]}.api_name and ${location}.api_name); the REST section is keyed by api_name, so each API needs its own`);
    }
    where[name] = location;
    rest[name] = { endpoint, region: regionOf(entry, endpoint, location, options) };
  }
  return rest;
}

/**
 * Returns a copy of `config` (typically the client utilities' parsed configuration) with the REST
 * section built from `outputs` merged into `API.REST`. Entries already in `API.REST` are kept;
 * one with the same API name is replaced.
 */
export function withRestConfig<T extends object>(config: T, outputs: unknown, options: RestConfigOptions = {}): T & { API: { REST: RestConfig } } {
  const current = config as { API?: { REST?: RestConfig } };
  return {
    ...config,
    API: { ...current.API, REST: { ...current.API?.REST, ...toRestConfig(outputs, options) } },
  };
}

/** The API entries of `custom` with their location: `custom` itself (flat), then `custom.<key>`. */
function apiEntries(custom: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const entries: Array<[string, Record<string, unknown>]> = [];
  if (API_KEYS.some((key) => key in custom)) {
    entries.push(['custom', custom]);
  }
  for (const [key, value] of Object.entries(custom)) {
    if (isObject(value) && API_KEYS.some((k) => k in value)) {
      entries.push([`custom.${key}`, value]);
    }
  }
  return entries;
}

/** What was expected, and what the file has that looks like an API written by hand. */
function noApisMessage(custom: Record<string, unknown> | undefined, leftOut: readonly string[]): string {
  const found = custom === undefined ? 'the file has no custom section' : `custom has ${describeKeys(custom)}`;
  const others = leftOut.length === 0 ? '' : `; ${leftOut.join(', ')} ${leftOut.length === 1 ? 'is a WebSocket API' : 'are WebSocket APIs'} (api_kind websocket), which the REST section leaves out`;
  const urls = custom === undefined ? [] : urlKeys(custom);
  const hint = urls.length > 0 ? `; ${urls.join(', ')} look${urls.length === 1 ? 's' : ''} like an API URL but ${urls.length === 1 ? 'is' : 'are'} not in an entry` : '';
  return `vendor_outputs.json describes no API: expected ${EXPECTED_ENTRY}; ${found}${others}${hint}. `
    + 'Pass { allowNoApis: true } when a backend may have none.';
}

function describeKeys(custom: Record<string, unknown>): string {
  const keys = Object.keys(custom);
  if (keys.length === 0) {
    return 'no keys';
  }
  const shown = keys.slice(0, 10).join(', ');
  return `the keys ${shown}${keys.length > 10 ? ` and ${keys.length - 10} more` : ''}`;
}

/** `custom.<key>` (and `custom.<key>.<key>`) whose string value is an http(s) URL. */
function urlKeys(custom: Record<string, unknown>): string[] {
  const found: string[] = [];
  const isUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\//i.test(value);
  for (const [key, value] of Object.entries(custom)) {
    if (isUrl(value)) {
      found.push(`custom.${key}`);
    } else if (isObject(value)) {
      found.push(...Object.entries(value).filter(([, v]) => isUrl(v)).map(([k]) => `custom.${key}.${k}`));
    }
  }
  return found.slice(0, 5);
}

/** `api_kind`, when present, is one the REST section takes. */
function checkKind(entry: Record<string, unknown>, location: string): void {
  const kind = entry.api_kind;
  if (kind !== undefined && (typeof kind !== 'string' || !API_KINDS.includes(kind))) {
    throw new RestConfigError(`${location}.api_kind must be one of ${[...API_KINDS, ...OTHER_KINDS].join(', ')} (got ${describe(kind)}); the REST section holds the APIs called with a method and a path (${API_KINDS.join(', ')})`);
  }
}

function regionOf(entry: Record<string, unknown>, endpoint: string, location: string, options: RestConfigOptions): string {
  const recorded = entry.vendor_region;
  if (recorded !== undefined) {
    if (typeof recorded !== 'string' || recorded === '') {
      throw new RestConfigError(`${location}.vendor_region must be a non-empty string (got ${describe(recorded)})`);
    }
    return recorded;
  }
  const host = /^https?:\/\/([^/:?#]+)/i.exec(endpoint)?.[1].toLowerCase() ?? '';
  const fromHost = EXECUTE_API_HOST.exec(host)?.[1];
  if (fromHost !== undefined) {
    return fromHost;
  }
  if (options.defaultRegion !== undefined && options.defaultRegion !== '') {
    return options.defaultRegion;
  }
  throw new RestConfigError(`${location} has no vendor_region and its api_endpoint ${endpoint} names no region; pass { defaultRegion: '<region>' }`);
}

function requiredString(entry: Record<string, unknown>, key: string, location: string): string {
  const value = entry[key];
  if (value === undefined) {
    throw new RestConfigError(`${location}.${key} is missing: a REST API entry needs api_name and api_endpoint (found keys: ${Object.keys(entry).join(', ')})`);
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RestConfigError(`${location}.${key} must be a non-empty string (got ${describe(value)})`);
  }
  return value;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RestConfigError(`vendor_outputs.json is not valid JSON: ${(error as Error).message}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
