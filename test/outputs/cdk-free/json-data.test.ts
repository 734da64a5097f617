import * as vm from 'vm';
import { isPlainObject } from '../../../src/outputs/cdk-free/json-data';

describe('isPlainObject, the one "is a plain object" guard', () => {
  test.each([
    ['an object literal', {}],
    ['an object from JSON.parse', JSON.parse('{"a":1}')],
    ['an object without a prototype', Object.create(null)],
    ['an object from another realm', vm.runInNewContext('({ a: 1 })')],
    ['an object with a __proto__ own key', JSON.parse('{"__proto__":{"x":1}}')],
  ])('%s is one', (_, value) => {
    expect(isPlainObject(value)).toBe(true);
  });

  class Point {
    constructor(public readonly x: number) {}
  }

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['an array', []],
    ['an array from another realm', vm.runInNewContext('[]')],
    ['a string', 'text'],
    ['a number', 1],
    ['an instance of a class', new Point(1)],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['an object whose prototype is another object', Object.create({ inherited: true })],
  ])('%s is not', (_, value) => {
    expect(isPlainObject(value)).toBe(false);
  });
});
