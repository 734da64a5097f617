/**
 * `AWS_IAM` routes of an HTTP API (`HttpIamAuthorizer`): a SigV4 signature for `execute-api`
 * (header or presigned URL) made with the key pair the server was started with (auth/sigv4.ts, as
 * REST's IAM methods); every refusal is 403, with `{"message":"Forbidden"}` for an unsigned request
 * and the verifier's wording (the service's) for a bad signature or key. An unsigned request gets in
 * as a guest only with `--allow-unsigned`. The caller reaches `requestContext.authorizer.iam`.
 */
import type { AuthorizationOutcome, IamCaller } from './authorization';
import { refusalAnswer } from './refusals';
import type { ApiResponse, HandlerContext } from '../../api-kind/api-kind';
import { isSigned, signedRequestOf } from '../../auth/sigv4';
import type { RoutedHttpRequest } from '../routed-request';

const ACCOUNT = '123456789012';

/** An unsigned request let in as a guest (an identity pool's unauthenticated role). */
const GUEST: IamCaller = {
  accessKey: null,
  accountId: null,
  callerId: 'AROALOCALGUEST:CognitoIdentityCredentials',
  cognitoIdentity: { amr: ['unauthenticated'], identityId: null, identityPoolId: null },
  principalOrgId: null,
  userArn: null,
  userId: 'AROALOCALGUEST:CognitoIdentityCredentials',
};

export async function authorizeIam(routed: RoutedHttpRequest, context: HandlerContext): Promise<AuthorizationOutcome> {
  const { request, requestId } = routed;
  const signedRequest = signedRequestOf(request);
  if (!isSigned(signedRequest)) {
    if (context.allowUnsigned) {
      return { allowed: true, authorization: { iam: GUEST } };
    }
    context.note(requestId, `${routed.match.route.routeKey} requires IAM authorization and the request is not signed (start with --allow-unsigned to let guests in); answered 403`);
    return { allowed: false, response: refusalAnswer('forbidden', requestId) };
  }
  if (context.verifier === undefined) {
    context.note(requestId, 'signed request, but the server has no credentials to verify it with (start with --credentials KEY:SECRET); answered 403');
    return { allowed: false, response: forbidden('The security token included in the request is invalid.', requestId) };
  }
  const result = await context.verifier.verify(signedRequest);
  if (!result.ok) {
    context.note(requestId, `SigV4 verification failed: ${result.reason}; answered 403`);
    return { allowed: false, response: forbidden(result.message, requestId) };
  }
  const key = context.verifier.accessKeyId;
  return {
    allowed: true,
    authorization: {
      iam: { accessKey: key, accountId: ACCOUNT, callerId: key, cognitoIdentity: null, principalOrgId: null, userArn: `arn:aws:iam::${ACCOUNT}:user/local`, userId: key },
    },
  };
}

function forbidden(message: string, requestId: string): ApiResponse {
  return { ...refusalAnswer('forbidden', requestId), body: JSON.stringify({ message }) };
}
