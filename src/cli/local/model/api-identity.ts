/**
 * What every API the local API serves has, whatever its kind: where it comes from in the
 * assembly, its names and its stages.
 */
export interface ApiIdentity {
  readonly logicalId: string;
  /** Construct path (`Backend/Api`), when the assembly names it (for messages and the route list). */
  readonly constructPath?: string;
  /** Local API id (the logical id). */
  readonly apiId: string;
  readonly name: string;
  readonly stackName: string;
  readonly region: string;
  /** Stage names (an HTTP API's `$default`, served at the root, among them when it has one). */
  readonly stages: readonly string[];
  /** Stage name → stage variables. */
  readonly stageVariables: Readonly<Record<string, Readonly<Record<string, string>>>>;
}
