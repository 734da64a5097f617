/** A REST API's gateway responses: `AWS::ApiGateway::GatewayResponse`s (or an OpenAPI document's entries in that shape). */
import { ownSet, stringEntries } from '../../common/own-record';
import type { GatewayResponseSpec } from '../../model/rest-api';
import type { StackTemplate } from '../../template/stack-template';
import { referencedId } from '../../template/template-references';

/** The Properties of the stack's gateway responses of the API `apiId`, in template order. */
export function gatewayResponsePropertiesOf(stack: StackTemplate, apiId: string): any[] {
  return stack.ofType('AWS::ApiGateway::GatewayResponse')
    .filter(([, r]) => referencedId(r.Properties?.RestApiId) === apiId)
    .map(([, r]) => r.Properties ?? {});
}

/** An `AWS::ApiGateway::GatewayResponse`'s Properties. */
export function readGatewayResponse(p: any): GatewayResponseSpec {
  const headers: Record<string, string> = {};
  const mappedHeaders: Record<string, string> = {};
  for (const [key, value] of Object.entries<any>(p.ResponseParameters ?? {})) {
    const m = /^gatewayresponse\.header\.(.+)$/.exec(key);
    const literal = typeof value === 'string' ? /^'(.*)'$/s.exec(value) : null;
    if (m && literal) {
      ownSet(headers, m[1], literal[1]);
    } else if (m && typeof value === 'string') {
      ownSet(mappedHeaders, m[1], value);
    }
  }
  return {
    responseType: String(p.ResponseType),
    statusCode: p.StatusCode !== undefined ? Number(p.StatusCode) : undefined,
    headers,
    mappedHeaders,
    templates: stringEntries(p.ResponseTemplates),
  };
}
