/**
 * Authorization `NONE`: every request goes on. Also the kind of an `AuthorizationType` no kind
 * checks (listed as the template names it).
 */
import type { AuthorizerKind } from './authorizer-kind';

export const noAuthorizationKind: AuthorizerKind = {
  authorizationType: 'NONE',
  authorizerTypes: [],
  describe: (method) => method.authorizationType,
  authorize: () => undefined,
};
