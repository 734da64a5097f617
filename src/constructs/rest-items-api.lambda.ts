/**
 * The default function behind RestItemsApi: a small, stateless items service that answers
 * every route of the API with a JSON body and the CORS headers of the spec.
 *
 * Bundled by projen (esbuild, target Node.js 20) into `assets/constructs/rest-items-api.lambda/index.js`,
 * so users need no build step. It must run on Node.js 20 (the local API runs it on the host) and on
 * every Lambda runtime RestItemsApi accepts (nodejs20.x and newer; nodejs22.x by default): use no
 * API newer than Node.js 20. What it does per method is in the README ("The default function").
 */
import { randomUUID } from 'crypto';

/** The REST (v1 payload) proxy event fields this handler reads. */
export interface ItemsProxyEvent {
  readonly resource?: string | null;
  readonly path?: string | null;
  readonly httpMethod: string;
  readonly headers?: Record<string, string | undefined> | null;
  readonly queryStringParameters?: Record<string, string | undefined> | null;
  readonly pathParameters?: Record<string, string | undefined> | null;
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
}

/** What API Gateway's Lambda proxy integration expects back. */
export interface ItemsProxyResult {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A sample item. */
export interface Item {
  readonly id: string;
  readonly name: string;
  readonly [key: string]: unknown;
}

/** `limit` when the query has none. */
export const DEFAULT_LIMIT = 10;
/** Largest accepted `limit`. */
export const MAX_LIMIT = 100;

/**
 * Environment variable with the allowed CORS origins as a JSON array; `["*"]` or unset means any origin.
 * RestItemsApi sets it from its `allowOrigins` prop.
 */
export const ALLOW_ORIGINS_ENV = 'CORS_ALLOW_ORIGINS';

const PROXY_METHODS = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Entry point (`index.handler` in the bundled asset). */
export async function handler(event: ItemsProxyEvent): Promise<ItemsProxyResult> {
  const method = (event.httpMethod ?? '').toUpperCase();
  const headers = responseHeaders(event);
  try {
    const id = itemPath(event);
    if (id === undefined) {
      return collection(method, event, headers);
    }
    if (id === null) {
      return reply(404, headers, { message: `No route for ${method} ${event.path ?? ''}; this API serves /items and /items/{proxy+}` });
    }
    return single(method, id, event, headers);
  } catch (error) {
    if (error instanceof BadRequest) {
      return reply(400, headers, { message: error.message });
    }
    throw error;
  }
}

function collection(method: string, event: ItemsProxyEvent, headers: Record<string, string>): ItemsProxyResult {
  switch (method) {
    case 'GET': {
      const limit = parseLimit(event.queryStringParameters?.limit);
      const items = Array.from({ length: limit }, (_, i) => sampleItem(String(i + 1)));
      return reply(200, headers, { items, count: items.length });
    }
    case 'POST': {
      const body = parseBody(event);
      if (typeof body.name !== 'string' || body.name.trim() === '') {
        throw new BadRequest(`POST /items needs a JSON object with a non-empty string "name" (got ${describe(body.name)})`);
      }
      return reply(201, headers, { item: { id: randomUUID(), name: body.name, ...others(body) } });
    }
    case 'PUT': {
      const body = parseBody(event);
      const items = body.items;
      if (!Array.isArray(items) || items.some((item) => typeof item !== 'object' || item === null || typeof item.name !== 'string')) {
        throw new BadRequest('PUT /items needs a JSON object {"items": [{"name": "..."}, ...]} (replaces the whole collection)');
      }
      const replaced = items.map((item: Record<string, unknown>, i: number) => ({ ...item, id: typeof item.id === 'string' ? item.id : String(i + 1) }));
      return reply(200, headers, { items: replaced, count: replaced.length });
    }
    case 'DELETE':
      return reply(200, headers, { deleted: 'all', count: 0 });
    case 'OPTIONS':
      return { statusCode: 204, headers, body: '' };
    default:
      return notAllowed(method, '/items', ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'], headers);
  }
}

function single(method: string, id: string, event: ItemsProxyEvent, headers: Record<string, string>): ItemsProxyResult {
  switch (method) {
    case 'GET':
      return reply(200, headers, { item: sampleItem(id) });
    case 'HEAD':
      return { statusCode: 200, headers, body: '' };
    case 'PUT': {
      const body = parseBody(event);
      if (typeof body.name !== 'string' || body.name.trim() === '') {
        throw new BadRequest(`PUT /items/${id} needs a JSON object with a non-empty string "name" (got ${describe(body.name)})`);
      }
      return reply(200, headers, { item: { id, name: body.name, ...others(body) } });
    }
    case 'PATCH': {
      const body = parseBody(event);
      return reply(200, headers, { item: { ...sampleItem(id), ...body, id } });
    }
    case 'DELETE':
      return reply(200, headers, { deleted: id });
    case 'OPTIONS':
      return { statusCode: 204, headers, body: '' };
    default:
      return notAllowed(method, `/items/${id}`, PROXY_METHODS, headers);
  }
}

/**
 * `undefined` for the collection (`/items`), the item path below `/items/` for the proxy
 * resource (`abc`, `object/abc`), `null` for anything else.
 */
function itemPath(event: ItemsProxyEvent): string | undefined | null {
  const proxy = event.pathParameters?.proxy;
  if (proxy !== undefined && proxy !== null) {
    const trimmed = proxy.replace(/^\/+|\/+$/g, '');
    return trimmed === '' ? undefined : percentDecoded(trimmed);
  }
  const path = (event.resource && !event.resource.includes('{') ? event.resource : event.path) ?? '/items';
  const match = /^\/items(?:\/(.*?))?\/*$/.exec(path);
  if (!match) {
    return null;
  }
  return match[1] === undefined || match[1] === '' ? undefined : percentDecoded(match[1]);
}

/** REST APIs pass the path and its parameters percent-encoded, as the client sent them; a malformed escape stays as sent. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') {
    return DEFAULT_LIMIT;
  }
  const limit = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new BadRequest(`limit must be an integer from 1 to ${MAX_LIMIT} (got ${JSON.stringify(raw)})`);
  }
  return limit;
}

function parseBody(event: ItemsProxyEvent): Record<string, any> {
  let text = event.body ?? '';
  if (event.isBase64Encoded) {
    text = Buffer.from(text, 'base64').toString('utf8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequest(`the request body must be JSON (got ${describe(text)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BadRequest(`the request body must be a JSON object (got ${describe(parsed)})`);
  }
  return parsed as Record<string, any>;
}

/** The fields of a body other than `id` and `name`, which the handler sets itself. */
function others(body: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, name: _name, ...rest } = body;
  return rest;
}

function sampleItem(id: string): Item {
  return { id, name: `Item ${id}` };
}

function notAllowed(method: string, path: string, allowed: string[], headers: Record<string, string>): ItemsProxyResult {
  return reply(405, { ...headers, Allow: allowed.join(', ') }, { message: `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}` });
}

function reply(statusCode: number, headers: Record<string, string>, body: unknown): ItemsProxyResult {
  return { statusCode, headers, body: JSON.stringify(body) };
}

/** CORS headers of the spec; with restricted origins, the request's origin when allowed. */
function responseHeaders(event: ItemsProxyEvent): Record<string, string> {
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': '*',
    'Content-Type': 'application/json',
  };
  const origins = allowedOrigins();
  if (origins !== undefined) {
    const origin = header(event, 'origin');
    headers['Access-Control-Allow-Origin'] = origin !== undefined && origins.includes(origin) ? origin : origins[0];
    headers.Vary = 'Origin';
  }
  return headers;
}

/** The allowed origins, or undefined when any origin is allowed. */
function allowedOrigins(): string[] | undefined {
  const raw = process.env[ALLOW_ORIGINS_ENV];
  if (raw === undefined || raw === '') {
    return undefined;
  }
  try {
    const origins = JSON.parse(raw);
    if (Array.isArray(origins) && origins.length > 0 && !origins.includes('*')) {
      return origins.map(String);
    }
  } catch {
    // A malformed value is treated as "any origin".
  }
  return undefined;
}

function header(event: ItemsProxyEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value !== undefined) {
      return value;
    }
  }
  return undefined;
}

function describe(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

class BadRequest extends Error {}
