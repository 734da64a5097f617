/**
 * The console's WebSocket panel in a real browser (headless Debian chromium, driven by
 * playwright-core): a WebSocket API of the app in the API picker with its routes, connect with a
 * query string, send messages and see each with the route it took and the answers of two-way
 * routes, then disconnect; a refused handshake is said so. Screenshot at laptop width.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Browser, chromium, Page } from 'playwright-core';
import { inlineFunction, Running, serve, synth } from './local/support';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts');

const CONNECT = 'exports.handler = async (event) => ({ statusCode: (event.queryStringParameters || {}).token === \'allow\' ? 200 : 401 });';
const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, body: "echo: " + event.body });';

let running: Running;
let browser: Browser;
let consoleUrl: string;

beforeAll(async () => {
  const assembly = synth((stack: Stack) => {
    const echo = inlineFunction(stack, 'Echo', ECHO);
    const api = new apigwv2.WebSocketApi(stack, 'Chat', {
      connectRouteOptions: { integration: new WebSocketLambdaIntegration('Connect', inlineFunction(stack, 'Connect', CONNECT)) },
      defaultRouteOptions: { integration: new WebSocketLambdaIntegration('EchoDefault', echo), returnResponse: true },
    });
    api.addRoute('shout', { integration: new WebSocketLambdaIntegration('EchoShout', echo), returnResponse: true });
    new apigwv2.WebSocketStage(stack, 'Dev', { webSocketApi: api, stageName: 'dev', autoDeploy: true });
  }, { stackName: 'ConsoleWs' });
  running = await serve(assembly, { quiet: true });
  consoleUrl = `${running.url.replace(/\/dev\/$/, '')}/@console/`;
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run 'bash scripts/ensure-chromium.sh' (npx projen ensure-browser)`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
});

/** Waits until the panel's status line starts with `text`. */
function statusStartsWith(page: Page, text: string): Promise<unknown> {
  return page.waitForFunction((prefix) => (globalThis as any).document.querySelector('#ws-status').textContent.startsWith(prefix), text);
}

async function logTexts(page: Page): Promise<string[]> {
  return page.locator('#ws-log li').allTextContents();
}

test('the panel connects, sends, shows each message with its route and the answers, and disconnects', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(consoleUrl);
    await page.waitForSelector('#ws-panel:not([hidden])');
    expect(await page.locator('#api-select option').first().textContent()).toMatch(/\(ConsoleWs\/Chat\) · WebSocket API$/);
    expect(await page.locator('#tree .method .verb').allTextContents()).toEqual(expect.arrayContaining(['$connect', '$default', 'shout']));
    expect(await page.locator('#ws-url option').first().textContent()).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/dev$/);

    await page.click('#ws-connect');
    await statusStartsWith(page, 'Refused');
    await page.fill('#ws-query', 'token=allow');
    await page.click('#ws-connect');
    await statusStartsWith(page, 'Connected');

    await page.fill('#ws-message', '{"action": "shout", "text": "hi"}');
    await page.click('#ws-send');
    await page.fill('#ws-message', 'plain text');
    await page.click('#ws-send');
    await page.locator('#ws-log .ws-in').nth(1).waitFor();
    const log = await logTexts(page);
    expect(log).toEqual(expect.arrayContaining([
      '\u2192shout{"action": "shout", "text": "hi"}',
      '\u2190echo: {"action": "shout", "text": "hi"}',
      '\u2192$defaultplain text',
      '\u2190echo: plain text',
    ]));
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-websocket-1280.png'), fullPage: true });

    await page.click('#ws-connect');
    await statusStartsWith(page, 'Closed: 1000');
    expect((await logTexts(page)).pop()).toBe('\u00b7closed 1000 ($disconnect)');
  } finally {
    await page.close();
  }
});
