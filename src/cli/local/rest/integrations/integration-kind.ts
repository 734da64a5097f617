/**
 * The contract of an integration kind: one module per kind (`AWS_PROXY`, `HTTP_PROXY`, the
 * non-proxy `MOCK` / `AWS` / `HTTP`, and the integrations that are not served) that reads its spec
 * from a method's `Integration`, describes itself for the route listing and the console, and runs.
 * The reader, the integrate step, the listing and the console ask the list of kinds (kinds.ts);
 * none of them switches on the type. This module imports none of its users.
 */
import type { IntegrationSpec } from '../../model/rest-api';
import type { IntrinsicEnvironment } from '../../template/intrinsics';
import type { LocalValues } from '../../template/stack-environment';
import type { IntegrationResult } from '../pipeline/method-response';
import type { RoutedRequest } from '../pipeline/request';

/** What reading an integration needs from the stack being read. */
export interface IntegrationReadContext {
  readonly stackName: string;
  readonly region: string;
  /** What is known of the stack's values (the local API, deployed values, the template): `values.known`. */
  readonly environment: IntrinsicEnvironment;
  /** The stack's values as text, stand-ins included (templates, parameters, AWS service URIs). */
  readonly values: LocalValues;
  readonly warnings: string[];
  /** The logical id of the template's Lambda function an integration `Uri` invokes, if any. */
  functionIdOf(uri: unknown): string | undefined;
  /** Registers the template's function to be run locally; returns its key. */
  registerFunction(logicalId: string): string;
}

/** What the start-up route listing knows besides the spec. */
export interface ListingContext {
  /** The environment the endpoints of AWS service integrations are named in (`AWS_ENDPOINT_URL_<SERVICE>`). */
  readonly env: NodeJS.ProcessEnv;
  /** How the listing names a function (its construct path, with notes such as a missing SDK package). */
  functionLabel(functionKey: string): string;
}

/** What the console knows besides the spec. */
export interface ConsoleContext {
  /** A function's construct path (else `<stack>/<logical id>`). */
  functionName(functionKey: string): string;
}

export interface IntegrationKind<S extends IntegrationSpec = IntegrationSpec> {
  /** The `Integration.Type`s this kind reads, which are also the `type`s of the specs it reads and runs. */
  readonly types: readonly string[];
  /**
   * The spec of a method's `Integration` (of `type`, uppercase), or an `UNSUPPORTED` spec, with a
   * start-up warning in `context.warnings` saying why, when it cannot be served locally.
   */
  read(context: IntegrationReadContext, integration: any, methodId: string, type: string): IntegrationSpec;
  /** What answers the method, as the start-up listing shows it (`Backend/Fn`, `MOCK`, `not served (...)`). */
  listingTarget(spec: S, context: ListingContext): string;
  /** What answers the method, as the console's resource pane shows it (`Lambda proxy: Backend/Fn`). */
  consoleLabel(spec: S, context: ConsoleContext): string;
  /** Runs the integration for a request that passed the gateway's checks. */
  run(routed: RoutedRequest, spec: S): Promise<IntegrationResult> | IntegrationResult;
}
