/**
 * An API the server serves, and where: the contract between the server and the console page,
 * kept below both.
 */
import type { ApiSpec } from '../model/rest-api';

/** One served API. */
export interface Endpoint {
  readonly api: ApiSpec;
  readonly host: string;
  readonly port: number;
  /** `http://HOST:PORT/<stage>/` of each stage. */
  readonly urls: readonly string[];
}
