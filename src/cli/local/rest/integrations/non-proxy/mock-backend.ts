/**
 * `MOCK`: nothing is called. The request template's output names the status code
 * (`{"statusCode": 200}`; API Gateway also reads the unquoted form `{ statusCode: 200 }` that
 * aws-cdk-lib writes for CORS preflights); without one, 200.
 */
import type { Backend } from './backend';

export const mockBackend: Backend<'mock'> = (routed, _integration, request) => {
  routed.log?.add(`Endpoint request body after transformations: ${request.body.toString('utf8')}`);
  const status = /"?statusCode"?\s*:\s*"?(\d{3})\b/.exec(request.body.toString('utf8'))?.[1] ?? '200';
  return { statusCode: Number(status), headers: [], body: Buffer.alloc(0), selectionInput: status };
};
