/**
 * A Lambda function URL (`AWS::Lambda::Url`) as the local API reads it: the function it invokes,
 * who may call it, how it answers (buffered or streamed) and its CORS settings. Served on a port of
 * its own at the root (its one "stage" is `$default`), as each URL has a host of its own.
 */
import type { ApiIdentity } from './api-identity';
import type { HttpCorsSpec } from './http-api';

export interface FunctionUrlSpec extends ApiIdentity {
  readonly kind: 'FUNCTION_URL';
  /** The function `TargetFunctionArn` names (a function of the template). */
  readonly functionKey: string;
  /** `Qualifier` (an alias or version), when set: the local function runs whatever it names. */
  readonly qualifier?: string;
  readonly authType: 'NONE' | 'AWS_IAM';
  readonly invokeMode: 'BUFFERED' | 'RESPONSE_STREAM';
  /** `Cors`; undefined when the URL has none (the function's headers pass as they are). */
  readonly cors?: HttpCorsSpec;
  /** The URL's id, the first label of its domain (`<url-id>.lambda-url.<region>.on.aws`). */
  readonly urlId: string;
}
