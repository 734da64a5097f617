/**
 * The contract of an authorizer kind: one module per method `AuthorizationType` (`NONE`,
 * `AWS_IAM`, `COGNITO_USER_POOLS`, `CUSTOM` with a Lambda authorizer) that reads its
 * `AWS::ApiGateway::Authorizer`s, describes a method's authorization for the route listing, and
 * authorizes requests. The authorizer reader, the authorize step and the listing ask the list of
 * kinds (kinds.ts); none of them switches on the type. This module imports none of its users.
 */
import type { CognitoAuthorizerSpec, LambdaAuthorizerSpec, MethodSpec } from '../../model/rest-api';
import type { IntrinsicEnvironment } from '../../template/intrinsics';
import type { StackArtifact } from '../../template/stack-template';
import type { GatewayError } from '../pipeline/gateway-errors';
import type { RoutedRequest } from '../pipeline/request';

/** What reading the authorizers of one API needs from the stack being read. */
export interface AuthorizerScope {
  readonly artifact: StackArtifact;
  readonly resources: Record<string, any>;
  readonly apiId: string;
  readonly environment: IntrinsicEnvironment;
  readonly warnings: string[];
  /** Registers a function of the template to be run locally; returns its key. */
  readonly registerFunction: (logicalId: string) => string;
}

/** An authorizer as its methods see it (what the template reader puts on each method that names it). */
export interface AuthorizerEntry {
  /** `Name` (the route listing shows it). */
  readonly name: string;
  readonly lambda?: LambdaAuthorizerSpec;
  readonly cognito?: CognitoAuthorizerSpec;
}

/** An `AWS::ApiGateway::Authorizer` as its kind reads it: its logical id, `Name` (else the id), `Type` (uppercase) and Properties. */
export interface AuthorizerResource {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly properties: Record<string, any>;
}

/** A request refused (a gateway error), or let through (undefined) with its identity set. */
export type AuthorizerOutcome = GatewayError | undefined | Promise<GatewayError | undefined>;

export interface AuthorizerKind {
  /** The method `AuthorizationType` this kind checks. */
  readonly authorizationType: string;
  /** The `Type`s of `AWS::ApiGateway::Authorizer` it reads (none: its methods name no authorizer). */
  readonly authorizerTypes: readonly string[];
  /** Reads one authorizer of its types, with start-up warnings in `scope.warnings` for what cannot run. */
  read?(scope: AuthorizerScope, resource: AuthorizerResource): AuthorizerEntry;
  /** The method's authorization as the start-up listing shows it (`CUSTOM TokenCheck`). */
  describe(method: MethodSpec): string;
  /** Authorizes a routed request (the console's TEST skips this unless `test-invoke --authorize`). */
  authorize(routed: RoutedRequest): AuthorizerOutcome;
}
