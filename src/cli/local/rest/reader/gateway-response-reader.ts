/** A REST API's gateway responses: `AWS::ApiGateway::GatewayResponse`s (or an OpenAPI document's entries in that shape). */
import { ownSet } from '../../common/own-record';
import type { GatewayResponseSpec } from '../../model/rest-api';
import { describeStandIn } from '../../model/stand-in';
import { LocalValues, valuesOf } from '../../template/stack-environment';
import type { StackTemplate } from '../../template/stack-template';
import { referencedId } from '../../template/template-references';

/** The Properties of the stack's gateway responses of the API `apiId`, in template order. */
export function gatewayResponsePropertiesOf(stack: StackTemplate, apiId: string): any[] {
  return stack.ofType('AWS::ApiGateway::GatewayResponse')
    .filter(([, r]) => referencedId(r.Properties?.RestApiId) === apiId)
    .map(([, r]) => r.Properties ?? {});
}

/** Where a gateway response's values are resolved, and where what is made up or left out is told. */
export interface GatewayResponseValues {
  readonly values: LocalValues;
  /** `<stack>/<api>`: how warnings name the API. */
  readonly where: string;
  readonly warnings: string[];
}

const NO_REFERENCES: GatewayResponseValues = {
  values: valuesOf({ pseudo: {}, ref: () => undefined, getAtt: () => undefined }),
  where: '',
  warnings: [],
};

/**
 * An `AWS::ApiGateway::GatewayResponse`'s Properties. Templates and parameters built with `Fn::Join`
 * or `Fn::Sub` are resolved; stand-ins in them and entries that cannot be evaluated are warned of.
 */
export function readGatewayResponse(p: any, context: GatewayResponseValues = NO_REFERENCES): GatewayResponseSpec {
  const templates = context.values.texts(p.ResponseTemplates);
  const parameters = context.values.texts(p.ResponseParameters);
  const what = `gateway response ${String(p.ResponseType)}`;
  for (const { key, problem } of [...templates.problems, ...parameters.problems]) {
    context.warnings.push(`${context.where}: ${what}: ${key} cannot be evaluated locally (${problem}); left out`);
  }
  for (const standIn of [...templates.standIns, ...parameters.standIns]) {
    context.warnings.push(`${context.where}: ${what}: ${describeStandIn(standIn)} (pass --outputs-file FILE or --from-stack NAME)`);
  }
  const headers: Record<string, string> = {};
  const mappedHeaders: Record<string, string> = {};
  for (const [key, value] of Object.entries<any>(parameters.values)) {
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
    templates: templates.values,
  };
}
