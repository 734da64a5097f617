/**
 * The Java string methods and Java renderings that mapping templates rely on.
 */
import { render } from './template-input';

describe('Java behaviour templates rely on', () => {
  test.each([
    ["$input.path('$.name').replaceAll('[aeiou]', '_')", 'Ann'.replace(/[aeiou]/g, '_')],
    ["$input.path('$.name').replaceAll('(?i)[aeiou]', '_')", '_nn'],
    ["$input.path('$.name').replace('n', 'N')", 'ANN'],
    ["$input.path('$.name').matches('A.*')", 'true'],
    ["$input.path('$.name').matches('n')", 'false'],
    ["$input.path('$.name').length()", '3'],
    ["$input.path('$.name').equalsIgnoreCase('ANN')", 'true'],
    ["$input.path('$.name').toUpperCase()", 'ANN'],
    ["#set($s = 'a,b,,')$s.split(',').size()", '2'],
    ['#foreach($t in $input.path(\'$.tags\'))$t#if($foreach.hasNext)+#end#end', 'a+b'],
    ['$input.path(\'$.nested\')', '{k=[{v=1}, {v=2}]}'],
  ])('%s → %s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('Java regular expressions in templates, run in linear time', () => {
  test.each([
    ["#set($s = 'a1b22c')$s.replaceAll('([0-9]+)', '<$1>')", 'a<1>b<22>c'],
    ["#set($s = 'a1b2')$s.replaceFirst('[0-9]', '\\$')", 'a$b2'],
    ["#set($s = ',a,,b,,')$s.split(',').size()", '4'],
    ["#set($s = 'abc')$s.split('').size()", '3'],
    ["#set($s = 'abc')$s.split(',').size()", '1'],
    ["#set($s = ',,')$s.split(',').size()", '0'],
    ["#set($s = '')$s.split(',').size()", '1'],
    ["#set($s = 'a  b')$s.split('\\s+').size()", '2'],
  ])('%s → %s (as java.lang.String answers)', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  test('an origin check against a long client header answers at once', () => {
    const origin = `https://${'a'.repeat(50_000)}.example`;
    const started = process.hrtime.bigint();
    expect(render("$input.params().header.get('Origin').matches('https://(a|aa)*\\.other')", {
      parameters: { path: {}, querystring: {}, header: { Origin: origin } },
    })).toBe('false');
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });

  test('a pattern RE2 cannot run fails the template, naming the pattern', () => {
    expect(() => render("#set($s = 'aa')$s.matches('(a)\\1')")).toThrow(/invalid regular expression "\(a\)\\\\1"/);
  });
});
