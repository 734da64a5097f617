/**
 * The request checks: required parameters, the request's media type, and the model chosen for it.
 */
import { parseQuery } from '../../../../../src/cli/local/common/query-string';
import { BodyModelSpec } from '../../../../../src/cli/local/model/rest-api';
import { missingParameters, modelFor, requestMediaType } from '../../../../../src/cli/local/rest/validation/request-checks';

test('required parameters: present and not blank, by location, sorted by their method.request key', () => {
  const required = [
    { location: 'path', name: 'id' },
    { location: 'multivaluequerystring', name: 'tag' },
    { location: 'header', name: 'x-tenant' },
    { location: 'querystring', name: '__proto__' },
  ] as const;
  const headers: Record<string, string> = { 'x-tenant': 'acme' };
  const request = (query: string, pathParameters: Record<string, string> = {}) => ({
    pathParameters,
    query: parseQuery(query),
    header: (n: string) => headers[n],
  });
  expect(missingParameters(required, request(''))).toEqual(['tag', 'id', '__proto__']);
  expect(missingParameters(required, request('tag=&tag=%20&__proto__=x', { id: '7' }))).toEqual(['tag']);
  expect(missingParameters(required, request('tag=a&tag=&__proto__=x', { id: '7' }))).toEqual([]);
  expect(missingParameters(required, request('tag=a&__proto__=%20', { id: '7' }))).toEqual(['__proto__']);
  expect(missingParameters(required, request('tag=a&__proto__=x', { id: '7' }))).toEqual([]);
});

test('missing names in the service\'s order: the recorded [x-header-param, issuer, qs1], whatever the template\'s order', () => {
  const required = [
    { location: 'querystring', name: 'qs1' },
    { location: 'header', name: 'x-header-param' },
    { location: 'path', name: 'issuer' },
  ] as const;
  const nothing = { pathParameters: {}, query: parseQuery(''), header: () => undefined };
  expect(missingParameters(required, nothing)).toEqual(['x-header-param', 'issuer', 'qs1']);
});

test('every location sorts by its whole key, names by code unit (upper case first)', () => {
  const required = [
    { location: 'querystring', name: 'b' },
    { location: 'querystring', name: 'a' },
    { location: 'querystring', name: 'Z' },
    { location: 'path', name: 'p' },
    { location: 'multivaluequerystring', name: 'mq' },
    { location: 'multivalueheader', name: 'mh' },
    { location: 'header', name: 'h' },
  ] as const;
  const nothing = { pathParameters: {}, query: parseQuery(''), header: () => undefined };
  expect(missingParameters(required, nothing)).toEqual(['h', 'mh', 'mq', 'p', 'Z', 'a', 'b']);
});

test.each([
  [undefined, 'application/json'],
  ['', 'application/json'],
  ['TEXT/Plain; charset=UTF-8', 'text/plain'],
  ['application/vnd.api+json', 'application/vnd.api+json'],
])('the media type of Content-Type %p is %p', (header, type) => {
  expect(requestMediaType(header)).toBe(type);
});

test('a media type\'s own model wins over $default; without either the body is not validated', () => {
  const own: BodyModelSpec = { name: 'Own' };
  const fallback: BodyModelSpec = { name: 'Fallback' };
  expect(modelFor(new Map([['text/plain', own], ['$default', fallback]]), 'text/plain')).toBe(own);
  expect(modelFor(new Map([['text/plain', own], ['$default', fallback]]), 'application/xml')).toBe(fallback);
  expect(modelFor(new Map([['text/plain', own]]), 'application/json')).toBeUndefined();
});
