/**
 * Templates rendered for the gateway: a static template at once, a quick one on the server's
 * thread within a budget, any other in a template host process; outputs and errors (kind, reason, message) cross intact; a host past its deadline is
 * killed, one whose heap runs out dies, and either way the template fails and the next one gets a
 * new host.
 */
import * as path from 'path';
import { BASE } from './template-input';
import { renderTemplate } from '../../../../../src/cli/local/rest/mapping/render-template';
import { TemplateError } from '../../../../../src/cli/local/rest/mapping/template-error';
import { closeTemplateHosts, templateHosts, TemplateHosts } from '../../../../../src/cli/local/rest/mapping/template-hosts';
import { MAX_TEMPLATE_BYTES } from '../../../../../src/cli/local/rest/mapping/template-limits';

jest.setTimeout(30_000);

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');

type Render = (template: string, input: typeof BASE) => unknown;

const failure = (template: string, body = BASE.body): Promise<TemplateError> => failureOf(template, body, renderTemplate);

async function failureOf(template: string, body: string, render: Render): Promise<TemplateError> {
  try {
    await render(template, { ...BASE, body });
  } catch (e) {
    if (e instanceof TemplateError) {
      return e;
    }
    throw e;
  }
  throw new Error('expected a TemplateError');
}

test('a static template is its own output, at once (no promise, no host)', () => {
  const output = renderTemplate('{"statusCode": 200}', BASE);
  expect(output).not.toBeInstanceOf(Promise);
  expect(output).toEqual({ text: '{"statusCode": 200}', context: { requestOverride: { header: {}, querystring: {}, path: {} }, responseOverride: { header: {} } } });
});

test('a static template over 300 KB fails at once', () => {
  expect(() => renderTemplate('x'.repeat(MAX_TEMPLATE_BYTES + 1), BASE)).toThrow(/^the mapping template is 307201 bytes; API Gateway accepts templates of up to 307200 bytes \(300 KB\)$/);
});

const OVERRIDES = '#set($context.responseOverride.status = 418)#set($context.responseOverride.header.X-List = [1, 2])#set($context.requestOverride.querystring.q = "z")$context.stage $input.json(\'$.n\')';
const OVERRIDDEN = {
  text: 'prod 3',
  context: { requestOverride: { header: {}, querystring: { q: 'z' }, path: {} }, responseOverride: { status: 418, header: { 'X-List': '1,2' } } },
};

test('a template that finishes within the budget is evaluated on the server\'s thread, at once: its output and overrides as plain data', () => {
  const output = renderTemplate(OVERRIDES, BASE);
  expect(output).not.toBeInstanceOf(Promise);
  expect(output).toEqual(OVERRIDDEN);
});

test('a template that calls a JavaScript method one step of which the budget cannot stop (search, repeat), or reads a large body, is evaluated in a host, with the same output', async () => {
  for (const [template, body] of [[`${OVERRIDES}$input.body.search("x")`, BASE.body], [OVERRIDES, JSON.stringify({ n: 3, pad: 'p'.repeat(70_000) })]]) {
    const pending = renderTemplate(template, { ...BASE, body });
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).context).toEqual(OVERRIDDEN.context);
  }
});

test('a template that runs past the budget on the server\'s thread is evaluated again in a host, from the start', async () => {
  const nested = '#set($n = 0)#foreach($i in [1..1000])#foreach($j in [1..1000])#set($n = $n + 1)#end#end$n';
  const started = performance.now();
  const pending = renderTemplate(nested, BASE);
  // The server's thread gave it its budget only.
  expect(performance.now() - started).toBeLessThan(200);
  expect(pending).toBeInstanceOf(Promise);
  expect((await pending).text).toBe('1000000');
});

test.each<[string, Render]>([
  ['on the server\'s thread', renderTemplate],
  ['from a host', (template, input) => templateHosts().evaluate(template, input)],
])('errors %s keep their kind, reason and message', async (_, render) => {
  const failing = (template: string, body = BASE.body) => failureOf(template, body, render);
  const notJson = await failing("$input.json('$')", 'a=1');
  expect(notJson.kind).toBe('body-not-json');
  expect(notJson.reason).toMatch(/JSON/);
  const parse = await failing('#if($input.body');
  expect(parse.kind).toBe('configuration');
  expect(parse.message).toMatch(/^the mapping template does not parse: Parse error/);
  // velocityjs adds the position to the message of an error thrown in a method; the reason stays.
  const util = await failing("$util.parseJson('nope')");
  expect(util.kind).toBe('configuration');
  expect(util.reason).toMatch(/^\$util\.parseJson: "nope" is not JSON/);
  expect(util.message).toMatch(/^\$util\.parseJson: "nope" is not JSON .*L\/N 1:0/);
  const range = await failing('#set($r = [1..2000000000])');
  expect(range.message).toMatch(/^the range \[1\.\.2000000000\] has 2000000000 numbers/);
});

test('a host past its deadline is killed (a template that cannot stop itself): the template fails; two at once, each in a host of its own', async () => {
  const hosts = new TemplateHosts(path.join(FIXTURES, 'spinning-template-host.js'));
  try {
    const started = Date.now();
    const outcomes = await Promise.allSettled([hosts.evaluate('$context.stage', BASE), hosts.evaluate('$context.stage', BASE)]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as TemplateError).message : o.status))).toEqual([
      'the template ran longer than 3000 ms and was stopped',
      'the template ran longer than 3000 ms and was stopped',
    ]);
    // Killed after the deadline and its 1 s of grace, both at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    expect(Date.now() - started).toBeLessThan(7000);
  } finally {
    hosts.close();
  }
});

test('while one host spins, other templates are evaluated by other hosts', async () => {
  const spinning = failure('#foreach($i in [1..1000])#foreach($j in [1..1000])#foreach($k in [1..1000])#end#end#end');
  const started = Date.now();
  expect(await renderTemplate('$context.requestId', BASE)).toMatchObject({ text: 'req-1' });
  expect(Date.now() - started).toBeLessThan(2000);
  expect((await spinning).message).toBe('the template ran longer than 3000 ms and was stopped');
});

test('a heap that runs out is told by V8\'s report however long the native stack trace after it (2.5 KB on Node.js 22)', async () => {
  const hosts = new TemplateHosts(path.join(FIXTURES, 'out-of-memory-template-host.js'));
  try {
    const error = await failureOf('$context.stage', BASE.body, (template, input) => hosts.evaluate(template, input));
    expect(error.message).toBe('the template ran out of memory and its evaluation was stopped');
  } finally {
    hosts.close();
  }
});

test('a host whose heap runs out dies alone: the template fails as out of memory, the next one works', async () => {
  const body = JSON.stringify({ s: 'x'.repeat(5 * 1024 * 1024) });
  const error = await failure("#set($s = $input.path('$.s'))#set($l = [])#foreach($i in [1..1000])#set($d = $l.add($s.toUpperCase()))#end$l.size()", body);
  expect(error.kind).toBe('configuration');
  expect(error.message).toBe('the template ran out of memory and its evaluation was stopped');
  expect(await renderTemplate('$context.stage', BASE)).toMatchObject({ text: 'prod' });
});

test('closing the hosts (the server stops) fails the templates running and waiting; later templates start new hosts', async () => {
  const started = Date.now();
  const running = Array.from({ length: 6 }, () => failure('#foreach($i in [1..1000])#foreach($j in [1..1000])#foreach($k in [1..1000])#end#end#end'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  closeTemplateHosts();
  const messages = (await Promise.all(running)).map((e) => e.message).sort();
  expect(Date.now() - started).toBeLessThan(2000);
  // Four ran (one host each), two waited for a free host.
  expect(messages).toEqual([
    ...Array(4).fill("the template's evaluation stopped (template host exited: SIGKILL)"),
    ...Array(2).fill('the server stopped before the template was evaluated'),
  ].sort());
  expect(await renderTemplate('$context.stage', BASE)).toMatchObject({ text: 'prod' });
});
