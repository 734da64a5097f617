/**
 * What the mapping template tests render with: a request's values, `render` of a template with them
 * (some replaced; evaluated here, as a template host does), and the TemplateError an action throws.
 */
import { evaluateTemplate, TemplateInput } from '../../../../../src/cli/local/rest/mapping/evaluate-template';
import { TemplateError } from '../../../../../src/cli/local/rest/mapping/template-error';

export const BASE: TemplateInput = {
  body: '{"name":"Ann","tags":["a","b"],"n":3,"nested":{"k":[{"v":1},{"v":2}]}}',
  parameters: { path: { id: '7', dup: 'from-path' }, querystring: { q: 'z', dup: 'from-query' }, header: { 'X-Trace': 't1', 'dup': 'from-header', 'Origin': 'https://a.example' } },
  context: {
    apiId: 'Api1',
    accountId: '123456789012',
    requestId: 'req-1',
    extendedRequestId: 'ext-1',
    httpMethod: 'POST',
    resourcePath: '/items/{id}',
    resourceId: 'abc123',
    stage: 'prod',
    path: '/prod/items/7',
    requestTimeEpoch: Date.UTC(2026, 10, 23, 4, 5, 6),
    domainName: '127.0.0.1:3000',
    sourceIp: '10.0.0.9',
    userAgent: 'curl/8',
    identity: { caller: 'AIDA' },
    authorizer: { principalId: 'user-1', tier: 'gold' },
  },
  stageVariables: { env: 'dev' },
};

export const render = (template: string, input: Partial<TemplateInput> = {}) => evaluateTemplate(template, { ...BASE, ...input }).text;

/** The TemplateError `action` throws (it must throw one). */
export function captured(action: () => unknown): TemplateError {
  try {
    action();
  } catch (e) {
    if (e instanceof TemplateError) {
      return e;
    }
    throw e;
  }
  throw new Error('expected a TemplateError');
}
