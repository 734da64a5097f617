/**
 * A real browser (headless Debian chromium, driven by playwright-core) calling the local REST API
 * from a page on another local origin: the CORS preflight and the GET pass when the API allows the
 * origin, and the browser blocks the call when the API restricts origins to another one.
 */
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Browser, chromium } from 'playwright-core';
import { Running, serve, synth } from './local/support';

const CHROMIUM = '/usr/bin/chromium';

/** A page server on its own origin. */
async function pageServer(): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>frontend</title><p>frontend under development</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function handler(allowOrigin: string): lambda.Code {
  return lambda.Code.fromInline(`exports.handler = async (e) => ({ statusCode: 200, headers: { 'Access-Control-Allow-Origin': ${JSON.stringify(allowOrigin)}, 'Access-Control-Allow-Headers': '*' }, body: JSON.stringify({ items: ['pen'], limit: (e.queryStringParameters || {}).limit }) });`);
}

let allowedPage: { server: http.Server; origin: string };
let otherPage: { server: http.Server; origin: string };
let running: Running;
let browser: Browser;
let openUrl: string;
let restrictedUrl: string;

beforeAll(async () => {
  allowedPage = await pageServer();
  otherPage = await pageServer();
  const assembly = synth((stack: Stack) => {
    const open = new apigw.RestApi(stack, 'OpenApi', { deployOptions: { stageName: 'prod' }, defaultCorsPreflightOptions: { allowOrigins: apigw.Cors.ALL_ORIGINS } });
    open.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(new lambda.Function(stack, 'OpenFn', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: handler('*') })));
    const restricted = new apigw.RestApi(stack, 'RestrictedApi', { deployOptions: { stageName: 'prod' }, defaultCorsPreflightOptions: { allowOrigins: [allowedPage.origin] } });
    restricted.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(new lambda.Function(stack, 'RestrictedFn', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: handler(allowedPage.origin) })));
  }, { stackName: 'BrowserTest' });
  running = await serve(assembly);
  openUrl = running.server.endpoints.find((e) => e.api.logicalId.startsWith('OpenApi'))!.urls[0];
  restrictedUrl = running.server.endpoints.find((e) => e.api.logicalId.startsWith('RestrictedApi'))!.urls[0];
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run 'bash scripts/ensure-chromium.sh' (npx projen ensure-browser)`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});

afterAll(async () => {
  await browser?.close();
  await running?.close();
  allowedPage?.server.close();
  otherPage?.server.close();
});

/** Loads the page of `pageOrigin` and runs a fetch that needs a preflight (JSON content type) from it. */
async function fetchFromPage(pageOrigin: string, url: string): Promise<{ ok: boolean; status?: number; body?: string; error?: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(`${pageOrigin}/`);
    return await page.evaluate(async (target) => {
      try {
        const response = await fetch(target, { headers: { 'Content-Type': 'application/json' } });
        return { ok: true, status: response.status, body: await response.text() };
      } catch (error) {
        return { ok: false, error: String(error) };
      }
    }, url);
  } finally {
    await page.close();
  }
}

test('the two APIs are served on their own ports', () => {
  expect(new URL(openUrl).port).not.toBe(new URL(restrictedUrl).port);
});

test('from another origin, the preflight and the GET pass in the browser (API allows all origins)', async () => {
  const before = running.lines.length;
  const result = await fetchFromPage(otherPage.origin, `${openUrl}items?limit=5`);
  expect(result).toEqual({ ok: true, status: 200, body: '{"items":["pen"],"limit":"5"}' });
  const lines = running.lines.slice(before);
  expect(lines.some((l) => / OPTIONS \/prod\/items\?limit=5 204 /.test(l))).toBe(true);
  expect(lines.some((l) => / GET \/prod\/items\?limit=5 200 /.test(l))).toBe(true);
});

test('the allowed origin passes the restricted API', async () => {
  const result = await fetchFromPage(allowedPage.origin, `${restrictedUrl}items`);
  expect(result).toEqual({ ok: true, status: 200, body: '{"items":["pen"]}' });
});

test('a disallowed origin is blocked by the browser at the preflight; the GET is never sent', async () => {
  const before = running.lines.length;
  const result = await fetchFromPage(otherPage.origin, `${restrictedUrl}items?blocked=1`);
  expect(result.ok).toBe(false);
  expect(result.error).toBe('TypeError: Failed to fetch');
  const lines = running.lines.slice(before);
  expect(lines.some((l) => / OPTIONS \/prod\/items\?blocked=1 204 /.test(l))).toBe(true);
  expect(lines.some((l) => / GET \/prod\/items\?blocked=1 /.test(l))).toBe(false);
});
