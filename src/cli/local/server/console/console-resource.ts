/**
 * A resource of the console's resource pane and its methods, whatever the API's kind (a REST
 * API's resources, an HTTP API's route paths).
 */

export interface ConsoleMethod {
  /** `GET`, ..., or `ANY`. */
  readonly httpMethod: string;
  readonly authorizationType: string;
  readonly apiKeyRequired: boolean;
  /** What answers the method: a function's construct path, MOCK, an HTTP endpoint, or why it is not served. */
  readonly integration: string;
  /** Why the method's function cannot run locally (every request to it fails), when it cannot. */
  readonly notRunnable?: string;
}

export interface ConsoleResource {
  /** `/items/{proxy+}`. */
  readonly path: string;
  readonly pathPart: string;
  readonly methods: readonly ConsoleMethod[];
  readonly children: readonly ConsoleResource[];
}
