/**
 * `AWS_IAM` authorization: a SigV4 signature (header or presigned URL) made with the key pair the
 * server was started with; unsigned requests get in as a guest only with `--allow-unsigned`.
 */
import { isSigned, SigV4Failure } from '../../auth/sigv4';
import { GatewayError, gatewayError, GatewayResponseType, MISSING_AUTHENTICATION_TOKEN } from '../pipeline/gateway-errors';
import type { RoutedRequest } from '../pipeline/request';

/** The identity of an unsigned request let in as a guest (an identity pool's unauthenticated role). */
const GUEST = { cognitoAuthenticationType: 'unauthenticated', caller: 'AROALOCALGUEST:CognitoIdentityCredentials', user: 'AROALOCALGUEST:CognitoIdentityCredentials' };

/** The gateway response type and error type of each refusal. */
const REFUSALS: Readonly<Record<SigV4Failure, { type: GatewayResponseType; errorType: string }>> = {
  'unsigned': { type: 'MISSING_AUTHENTICATION_TOKEN', errorType: 'MissingAuthenticationTokenException' },
  'incomplete': { type: 'MISSING_AUTHENTICATION_TOKEN', errorType: 'IncompleteSignatureException' },
  'unknown-key': { type: 'UNAUTHORIZED', errorType: 'UnrecognizedClientException' },
  'expired': { type: 'INVALID_SIGNATURE', errorType: 'InvalidSignatureException' },
  'invalid': { type: 'INVALID_SIGNATURE', errorType: 'InvalidSignatureException' },
};

export async function authorizeIam(routed: RoutedRequest): Promise<GatewayError | undefined> {
  const { settings, request, headers, ids } = routed;
  const signedRequest = { method: request.method, path: request.target, headers: headers.toRecord(), body: request.body };
  if (!isSigned(signedRequest)) {
    if (settings.allowUnsigned) {
      routed.identity = GUEST;
      return undefined;
    }
    settings.note?.(ids.requestId, `${request.method} ${routed.route.resource.path} requires IAM authorization and the request is not signed (start with --allow-unsigned to let guests in)`);
    return MISSING_AUTHENTICATION_TOKEN;
  }
  if (settings.verifier === undefined) {
    settings.note?.(ids.requestId, 'signed request, but the server has no credentials to verify it with (start with --credentials KEY:SECRET)');
    return gatewayError('UNAUTHORIZED', { status: 403, message: 'The security token included in the request is invalid.', errorType: 'UnrecognizedClientException' });
  }
  const result = await settings.verifier.verify(signedRequest);
  if (!result.ok) {
    settings.note?.(ids.requestId, `SigV4 verification failed: ${result.reason}`);
    const { type, errorType } = REFUSALS[result.failure];
    return gatewayError(type, { status: 403, message: result.message, errorType });
  }
  const key = settings.verifier.accessKeyId;
  routed.identity = { accountId: '123456789012', accessKey: key, caller: key, user: key, userArn: 'arn:aws:iam::123456789012:user/local' };
  return undefined;
}
