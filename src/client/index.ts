/**
 * Frontend helper: the REST section of the client library's configuration, built from
 * vendor_outputs.json. Dependency-free (no aws-cdk-lib, no Node built-ins), so a browser bundle
 * can import it, from the frontend package or from the construct library's subpath:
 *
 *   import { toRestConfig } from 'cdk-vendor-outputs-client';   // frontends: no aws-cdk-lib
 *   import { toRestConfig } from 'cdk-vendor-outputs/client';   // code that has the library
 *
 * The `custom` section holds the REST APIs a backend exposes, in either shape:
 * - flat, one API: `custom.api_name`, `custom.api_endpoint` (and `api_id`, `api_stage`,
 *   `vendor_region`), as the spec's example and `RestItemsApi` without `outputsKey` write it;
 * - one object per API: `custom.<key>.{api_name, api_endpoint, ...}`, as `RestItemsApi` with
 *   `outputsKey` writes it. Both may appear together.
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
}

/** vendor_outputs.json does not describe its REST APIs in a usable way. */
export class RestConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestConfigError';
  }
}

/** Keys that mark an object of `custom` as a REST API entry. */
const API_KEYS = ['api_name', 'api_endpoint', 'api_id'];

/** `https://<id>.execute-api.<region>.amazonaws.com[.cn]/...` */
const EXECUTE_API_HOST = /^[a-z0-9]+\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/;

/**
 * Builds the REST section (`{ [apiName]: { endpoint, region } }`) from the parsed
 * vendor_outputs.json (a JSON string is parsed first).
 *
 * The region of each API is its `vendor_region`; else the region in an
 * `https://<id>.execute-api.<region>.amazonaws.com` endpoint; else `options.defaultRegion`.
 * A file without REST APIs gives `{}`. Throws {@link RestConfigError} naming the entry for a
 * missing or empty `api_name` or `api_endpoint`, an endpoint that is not an http(s) URL, a region
 * that cannot be found, and two APIs with the same name.
 */
export function toRestConfig(outputs: unknown, options: RestConfigOptions = {}): RestConfig {
  const file = typeof outputs === 'string' ? parse(outputs) : outputs;
  if (!isObject(file)) {
    throw new RestConfigError(`expected the parsed vendor_outputs.json object (got ${describe(file)})`);
  }
  const custom = file.custom;
  if (custom === undefined) {
    return {};
  }
  if (!isObject(custom)) {
    throw new RestConfigError(`custom must be an object (got ${describe(custom)})`);
  }
  const entries: Array<[string, Record<string, unknown>]> = [];
  if (API_KEYS.some((key) => key in custom)) {
    entries.push(['custom', custom]);
  }
  for (const [key, value] of Object.entries(custom)) {
    if (isObject(value) && API_KEYS.some((k) => k in value)) {
      entries.push([`custom.${key}`, value]);
    }
  }
  const rest: RestConfig = {};
  const where: Record<string, string> = {};
  for (const [location, entry] of entries) {
    const name = requiredString(entry, 'api_name', location);
    const endpoint = requiredString(entry, 'api_endpoint', location);
    if (!/^https?:\/\/[^/\s]+/i.test(endpoint)) {
      throw new RestConfigError(`${location}.api_endpoint must be an http(s) URL (got ${describe(endpoint)})`);
    }
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
