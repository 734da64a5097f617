/**
 * A part of the app the local API does not serve (an API of a kind not served, a function URL, a
 * function nothing served invokes), with its kind and why: listed at start, in the console and by
 * `test-invoke`, so every API and function of the assembly is accounted for.
 */
export interface UnservedPart {
  /** What it is, as the listing names it: `HTTP API`, `WebSocket API`, `function URL`, `function`, ... */
  readonly kind: string;
  readonly stackName: string;
  readonly logicalId: string;
  /** How messages name it: its construct path, else `<stack>/<logical id>`. */
  readonly label: string;
  /** Why it is not served. */
  readonly reason: string;
}
