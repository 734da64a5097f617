/** Authorization types of the data API (`data.authorization_types`). */
export enum DataAuthorizationType {
  VENDOR_USER_POOLS = 'VENDOR_USER_POOLS',
  API_KEY = 'API_KEY',
  VENDOR_IAM = 'VENDOR_IAM',
  VENDOR_LAMBDA = 'VENDOR_LAMBDA',
  OPENID_CONNECT = 'OPENID_CONNECT',
}

/** The `data` section: the data API, generated from the data definition. */
export interface DataOutputs {
  /** Region of the data API. */
  readonly vendorRegion: string;
  /** Endpoint URL of the data API. */
  readonly url: string;
  /**
   * Model introspection schema used when creating a data client; free-form, keys pass through unchanged.
   * @default - not written
   */
  readonly modelIntrospection?: { [key: string]: any };
  /**
   * API key, when `API_KEY` is one of the authorization types.
   * @default - not written
   */
  readonly apiKey?: string;
  /** The default authorization type. */
  readonly defaultAuthorizationType: DataAuthorizationType;
  /** Every enabled authorization type. */
  readonly authorizationTypes: DataAuthorizationType[];
}
