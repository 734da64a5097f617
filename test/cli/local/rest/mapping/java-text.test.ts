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
