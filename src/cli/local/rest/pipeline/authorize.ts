/**
 * Step: the method's authorization, one authorizer per `AuthorizationType`. An authorizer either
 * refuses the request or sets its identity. The console's TEST skips this step (unless
 * `test-invoke --authorize`).
 */
import { AUTHORIZER_CONFIGURATION_ERROR, GatewayError } from './gateway-errors';
import type { RoutedRequest } from './request';
import { authorizeCognito } from '../authorizers/cognito-authorizer';
import { authorizeIam } from '../authorizers/iam';
import { authorizeLambda } from '../authorizers/lambda-authorizer';

type Authorizer = (routed: RoutedRequest) => GatewayError | undefined | Promise<GatewayError | undefined>;

/** An authorizer that is not in the template cannot run: the gateway's 500 for a failing authorizer. */
const authorizerNotRunnable = (routed: RoutedRequest, why: string): GatewayError => {
  const name = routed.route.method.authorizerName ?? 'of the method';
  routed.settings.note?.(routed.ids.requestId, `authorizer ${name}: ${why}, so it cannot run locally; answered 500`);
  return AUTHORIZER_CONFIGURATION_ERROR;
};

const AUTHORIZERS: Readonly<Record<string, Authorizer>> = {
  NONE: () => undefined,
  AWS_IAM: authorizeIam,
  COGNITO_USER_POOLS: (routed) => {
    const cognito = routed.route.method.cognitoAuthorizer;
    return cognito !== undefined ? authorizeCognito(routed, cognito) : authorizerNotRunnable(routed, 'it is not in the template');
  },
  CUSTOM: (routed) => {
    const lambda = routed.route.method.authorizer;
    return lambda !== undefined ? authorizeLambda(routed, lambda) : authorizerNotRunnable(routed, 'its function is not in the template');
  },
};

export function authorize(routed: RoutedRequest): GatewayError | undefined | Promise<GatewayError | undefined> {
  if (routed.settings.testInvoke && !routed.settings.testInvokeAuthorize) {
    return undefined;
  }
  const type = routed.route.method.authorizationType;
  const authorizer = Object.prototype.hasOwnProperty.call(AUTHORIZERS, type) ? AUTHORIZERS[type] : AUTHORIZERS.NONE;
  return authorizer(routed);
}
