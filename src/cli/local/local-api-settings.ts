/**
 * What the local API is started with, whichever command starts it (`serve`, `sandbox`,
 * `test-invoke`): the typed form of the local-API options (cli/local-api-options.ts parses them).
 */
import type { SigV4Credentials } from './auth/sigv4';
import type { EnvVarsFile } from './lambda/env-vars';
import type { ApiKeyValue } from './rest/api-key-values';
import type { DeployedValues } from './template/deployed-values';

/** Where deployed values come from: `--from-stack NAME` or `--outputs-file FILE`. */
export type DeployedSource =
  | { readonly kind: 'stack'; readonly stack: string }
  | { readonly kind: 'outputs-file'; readonly file: string; readonly stack?: string };

export interface LocalApiSettings {
  /** `--stack`: artifact ids or stack names (empty: every stack). */
  readonly stacks: readonly string[];
  /** `--port`: the first API's port; the next APIs take the following ports, 0 picks free ones. */
  readonly port: number;
  /** `--host`: the interface to bind, without brackets. */
  readonly host: string;
  /** `--quiet`: no line per request. */
  readonly quiet: boolean;
  /** `--credentials`, else the environment's key pair: what IAM-authorized methods accept. */
  readonly credentials?: SigV4Credentials;
  /** `--allow-unsigned`: unsigned requests reach IAM-authorized methods as a guest. */
  readonly allowUnsigned: boolean;
  /** `--api-key NAME=VALUE`s, in order. */
  readonly apiKeys: readonly ApiKeyValue[];
  /** `--env-vars`, read: function environment variables over the template's. */
  readonly envVars?: EnvVarsFile;
  /** `--jwks`: a file of keys Cognito authorizers also trust. */
  readonly jwks?: string;
  /** `--node host`: every function on this machine's Node.js, not the major its runtime names. */
  readonly hostRuntimes?: boolean;
  /** `--from-stack` / `--outputs-file`: where the deployed values come from. */
  readonly deployedSource?: DeployedSource;
  /** The deployed values, once read (cli/local-deployed-values.ts): they answer the template's references first. */
  readonly deployed?: DeployedValues;
}
