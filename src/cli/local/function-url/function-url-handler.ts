/**
 * Answers the requests of one function URL: CORS preflights (a URL with `Cors` answers them itself),
 * `AWS_IAM` callers checked (SigV4 for the service `lambda`), the function invoked with the URL's
 * payload 2.0 event, and its answer read as HTTP APIs read payload 2.0 (`BUFFERED`) or streamed to
 * the client as written (`RESPONSE_STREAM`, ../api-kind/streamed-response.ts).
 */
import { urlAnswer } from './function-url-answers';
import { functionUrlEvent, UrlIamCaller, UrlRequest } from './function-url-event';
import type { ApiHandler, ApiRequest, ApiResponse, HandlerContext } from '../api-kind/api-kind';
import { LAMBDA_STREAM_BANDWIDTH, MAX_STREAMED_RESPONSE_BYTES, StreamedResponse } from '../api-kind/streamed-response';
import { isSigned, signedRequestOf } from '../auth/sigv4';
import { requestId as newRequestId, traceId } from '../common/ids';
import { isPreflight, preflightAnswer, withCorsHeaders } from '../http/cors';
import { readV2Result } from '../http/payload-v2-response';
import { describeFailure, InvokeOutcome } from '../lambda/invoke-outcome';
import type { FunctionUrlSpec } from '../model/function-url';

const ACCOUNT = '123456789012';

export class FunctionUrlHandler implements ApiHandler {
  constructor(private readonly url: FunctionUrlSpec, private readonly context: HandlerContext) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const requestId = newRequestId();
    const response = await this.answer(request, requestId);
    return this.url.cors === undefined || isPreflight(request) ? response : withCorsHeaders(this.url.cors, request, response);
  }

  private async answer(request: ApiRequest, requestId: string): Promise<ApiResponse> {
    if (this.url.cors !== undefined && isPreflight(request)) {
      return urlPreflight(this.url, request, requestId);
    }
    const caller = this.url.authType === 'AWS_IAM' ? await this.authorize(request, requestId) : undefined;
    if (caller !== undefined && 'statusCode' in caller) {
      return caller;
    }
    const routed: UrlRequest = {
      url: this.url, request, requestId, receivedAt: Date.now(), traceId: traceId(), ...(caller !== undefined ? { iam: caller } : {}),
    };
    const event = functionUrlEvent(routed);
    return this.url.invokeMode === 'RESPONSE_STREAM' ? this.stream(event, requestId) : this.buffered(event, requestId);
  }

  private async buffered(event: unknown, requestId: string): Promise<ApiResponse> {
    const outcome = await this.context.invoker.invoke(this.url.functionKey, event, { awsRequestId: requestId });
    return this.fromOutcome(outcome, requestId);
  }

  private async stream(event: unknown, requestId: string): Promise<ApiResponse> {
    const stream = new StreamedResponse({ maxBytes: MAX_STREAMED_RESPONSE_BYTES, bandwidth: LAMBDA_STREAM_BANDWIDTH }, (why) => this.context.note(requestId, `${why}; the connection was cut`));
    void this.context.invoker.invokeStreaming(this.url.functionKey, event, { awsRequestId: requestId }, stream).then((outcome) => {
      if (outcome.kind !== 'ok') {
        this.context.note(requestId, `function URL: ${describeFailure(outcome)}`);
      }
      stream.finish(outcome);
    });
    const head = await stream.head;
    switch (head.kind) {
      case 'ended':
        return this.fromOutcome(head.outcome, requestId);
      case 'bad-prelude':
        this.context.note(requestId, `function URL: ${head.reason}; answered 502`);
        return urlAnswer('badGateway', requestId);
      case 'head':
        return { statusCode: head.statusCode, headers: [...head.headers, ['x-amzn-RequestId', requestId]], body: '', requestId, stream };
    }
  }

  /** The answer to an invocation that ended without a stream: its payload read as payload 2.0, or the failure. */
  private fromOutcome(outcome: InvokeOutcome, requestId: string): ApiResponse {
    if (outcome.kind === 'ok') {
      const read = readV2Result(outcome.payload);
      if (!read.ok) {
        this.context.note(requestId, `function URL: ${read.reason}; answered 502`);
        return urlAnswer('badGateway', requestId);
      }
      return { statusCode: read.statusCode, headers: [...read.headers, ['x-amzn-RequestId', requestId]], body: read.body, requestId };
    }
    this.context.note(requestId, `function URL: ${describeFailure(outcome)}; answered ${outcome.kind === 'rejected' ? outcome.statusCode : 502}`);
    if (outcome.kind === 'rejected') {
      return outcome.statusCode === 429 ? urlAnswer('throttled', requestId)
        : outcome.statusCode === 413 ? urlAnswer('tooLarge', requestId) : urlAnswer('notFound', requestId, outcome.errorMessage);
    }
    return urlAnswer('badGateway', requestId);
  }

  /** The `AWS_IAM` caller, or the 403 for a request the server cannot verify. */
  private async authorize(request: ApiRequest, requestId: string): Promise<UrlIamCaller | ApiResponse> {
    const signedRequest = signedRequestOf(request);
    if (!isSigned(signedRequest)) {
      this.context.note(requestId, 'the function URL requires IAM authorization (AuthType AWS_IAM) and the request is not signed; answered 403');
      return urlAnswer('forbidden', requestId);
    }
    if (this.context.verifier === undefined) {
      this.context.note(requestId, 'signed request, but the server has no credentials to verify it with (start with --credentials KEY:SECRET); answered 403');
      return urlAnswer('forbidden', requestId);
    }
    const result = await this.context.verifier.verify(signedRequest, new Date(), 'lambda');
    if (!result.ok) {
      this.context.note(requestId, `SigV4 verification failed: ${result.reason}; answered 403`);
      return urlAnswer('forbidden', requestId);
    }
    const key = this.context.verifier.accessKeyId;
    return { accessKey: key, accountId: ACCOUNT, callerId: key, cognitoIdentity: null, principalOrgId: null, userArn: `arn:aws:iam::${ACCOUNT}:user/local`, userId: key };
  }
}

/** The URL's own answer to a preflight (the configured headers for an allowed origin), with Lambda's request id header. */
function urlPreflight(url: FunctionUrlSpec, request: ApiRequest, requestId: string): ApiResponse {
  const answer = preflightAnswer(url.cors!, request, requestId);
  return { ...answer, statusCode: 200, headers: [...answer.headers.filter(([name]) => name !== 'apigw-requestid'), ['x-amzn-RequestId', requestId]] };
}
