/**
 * API Gateway's template limits as the evaluator applies them: 1,000 iterations per `#foreach`
 * (each time it runs), ranges walked without being built, strings and output bounded by the 10 MB
 * payload, the 300 KB template size, and the deadline.
 */
import { captured, render } from './template-input';
import { MAX_FOREACH_ITERATIONS, MAX_RANGE_ELEMENTS, MAX_TEMPLATE_BYTES, MAX_TEMPLATE_OUTPUT_BYTES } from '../../../../../src/cli/local/rest/mapping/template-limits';

describe('#foreach stops after 1,000 iterations, each time it runs', () => {
  test.each([
    [999, 999],
    [1000, 1000],
    [1001, 1000],
    [2_000_000_000, 1000],
  ])('a range of %d numbers: %d iterations', (size, iterations) => {
    const text = render(`#set($n = 0)#foreach($i in [1..${size}])#set($n = $n + 1)#end$n`);
    expect(text).toBe(String(iterations));
  });

  test('the items walked are the first 1,000; $foreach.hasNext still tells there are more', () => {
    const text = render('#foreach($i in [1..5000])#if($foreach.count == 1000)$i $foreach.hasNext#end#end');
    expect(text).toBe('1000 true');
  });

  test('a list from the body is walked up to the limit', () => {
    const body = JSON.stringify({ items: Array.from({ length: 1500 }, (_, i) => i) });
    expect(render("#foreach($x in $input.path('$.items'))#set($last = $x)#end$last", { body })).toBe('999');
  });

  test('each run of a nested loop counts on its own: 1,000 × 1,000', () => {
    const text = render('#foreach($i in [1..100000])#foreach($j in [1..100000])x#end#end');
    expect(text).toBe('x'.repeat(MAX_FOREACH_ITERATIONS * MAX_FOREACH_ITERATIONS));
  });

  test('a descending range, and a range from references, walk as Velocity does', () => {
    expect(render('#foreach($i in [3..1])$i#end')).toBe('321');
    expect(render('#set($a = 2)#set($b = 4)#foreach($i in [$a..$b])$i#end')).toBe('234');
  });
});

describe('a range used as a value is a list, up to 1,000,000 numbers', () => {
  test('within the bound: a list', () => {
    expect(render(`#set($r = [1..${MAX_RANGE_ELEMENTS}])$r.size()`)).toBe(String(MAX_RANGE_ELEMENTS));
  });

  test('past it: the template fails, and nothing is built', () => {
    const error = captured(() => render('#set($r = [1..2000000000])$r.size()'));
    expect(error.kind).toBe('configuration');
    expect(error.message).toBe('the range [1..2000000000] has 2000000000 numbers; a range used as a value is built up to 1000000 (a #foreach walks any range without building it)');
  });
});

describe('strings and output bounded by the 10 MB payload', () => {
  const TOO_LARGE = `the template's output passed API Gateway's payload limit of ${MAX_TEMPLATE_OUTPUT_BYTES} bytes (10 MB)`;

  test('a string doubled 23 times fails before it is built (interpolation)', () => {
    const error = captured(() => render('#set($s = "0123456789")#foreach($i in [1..23])#set($s = "$s$s")#end$s'));
    expect(error.kind).toBe('configuration');
    expect(error.message).toBe(TOO_LARGE);
  });

  test.each([
    ['concatenation', '#set($s = $s + $s)'],
    ['a method', '#set($s = $s.concat($s))'],
  ])('and by %s', (_, step) => {
    const error = captured(() => render(`#set($s = "0123456789")#foreach($i in [1..23])${step}#end`));
    expect(error.message).toBe(TOO_LARGE);
  });

  test('output built by a loop', () => {
    const error = captured(() => render('#set($s = "0123456789")#foreach($i in [1..12])#set($s = "$s$s")#end#foreach($i in [1..1000])$s#end'));
    expect(error.message).toBe(TOO_LARGE);
  });

  test('output of exactly 10 MB passes; one byte more fails (UTF-8 bytes counted)', () => {
    const body = JSON.stringify({ s: 'x'.repeat(MAX_TEMPLATE_OUTPUT_BYTES - 1) });
    expect(render("$input.path('$.s')é".replace('é', 'y'), { body })).toHaveLength(MAX_TEMPLATE_OUTPUT_BYTES);
    const error = captured(() => render("$input.path('$.s')é", { body }));
    expect(error.message).toBe(TOO_LARGE);
  });
});

describe('the template size: 300 KB', () => {
  test.each([
    [MAX_TEMPLATE_BYTES, true],
    [MAX_TEMPLATE_BYTES + 1, false],
  ])('%d bytes: accepted %s', (bytes, accepted) => {
    const template = `$context.stage${' '.repeat(bytes - '$context.stage'.length)}`;
    if (accepted) {
      expect(render(template).trim()).toBe('prod');
    } else {
      const error = captured(() => render(template));
      expect(error.kind).toBe('configuration');
      expect(error.message).toBe(`the mapping template is ${bytes} bytes; API Gateway accepts templates of up to ${MAX_TEMPLATE_BYTES} bytes (300 KB)`);
    }
  });

  test('a static template over the size fails too', () => {
    expect(captured(() => render('x'.repeat(MAX_TEMPLATE_BYTES + 1))).message).toMatch(/^the mapping template is 307201 bytes/);
  });
});

test('a template past its deadline stops itself with a configuration error', () => {
  const started = Date.now();
  const error = captured(() => render('#foreach($i in [1..1000])#foreach($j in [1..1000])#foreach($k in [1..1000])#end#end#end'));
  expect(error.kind).toBe('configuration');
  expect(error.message).toBe('the template ran longer than 3000 ms and was stopped');
  expect(Date.now() - started).toBeLessThan(6000);
});
