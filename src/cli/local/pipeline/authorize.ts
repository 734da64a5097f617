/**
 * Step: the method's authorization, one authorizer per `AuthorizationType`. An authorizer either
 * refuses the request or sets its identity. The console's TEST skips this step.
 */
import { authorizeIam } from './authorizers/iam';
import { AUTHORIZER_CONFIGURATION_ERROR, authorizeLambda } from './authorizers/lambda-authorizer';
import { GatewayError, UNAUTHORIZED } from './gateway-errors';
import type { RoutedRequest } from './request';

type Authorizer = (routed: RoutedRequest) => GatewayError | undefined | Promise<GatewayError | undefined>;

/** Cognito authorizers are not run locally yet: they only require the token to be present. */
const tokenPresent: Authorizer = (routed) => (routed.headers.get('authorization')?.trim() ? undefined : UNAUTHORIZED);

/** A Lambda authorizer whose function is not in the template cannot run: the gateway's 500 for a failing authorizer. */
const authorizerNotRunnable: Authorizer = (routed) => {
  const name = routed.route.method.authorizerName ?? 'of the method';
  routed.settings.note?.(routed.ids.requestId, `authorizer ${name}: its function is not in the template, so it cannot run locally; answered 500`);
  return AUTHORIZER_CONFIGURATION_ERROR;
};

const AUTHORIZERS: Readonly<Record<string, Authorizer>> = {
  NONE: () => undefined,
  AWS_IAM: authorizeIam,
  COGNITO_USER_POOLS: tokenPresent,
  CUSTOM: (routed) => {
    const lambda = routed.route.method.authorizer;
    return lambda !== undefined ? authorizeLambda(routed, lambda) : authorizerNotRunnable(routed);
  },
};

export function authorize(routed: RoutedRequest): GatewayError | undefined | Promise<GatewayError | undefined> {
  if (routed.settings.testInvoke) {
    return undefined;
  }
  const type = routed.route.method.authorizationType;
  const authorizer = Object.prototype.hasOwnProperty.call(AUTHORIZERS, type) ? AUTHORIZERS[type] : AUTHORIZERS.NONE;
  return authorizer(routed);
}
