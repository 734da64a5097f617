import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';

/**
 * Where an API's entry goes in the `custom` section of vendor_outputs.json, and the name the
 * frontend's client library knows it by. Common to every kind of API (`addRestApi`, `addHttpApi`, `addWebSocketApi`).
 */
export interface ApiOutputOptions {
  /**
   * Name of the API in the client configuration (`api_name`): the key of the client library's
   * REST section, so it must be known at synth (not a token) and unique in the backend.
   * @default - the API's own name (`restApiName` of a `RestApi` or `SpecRestApi`, `httpApiName`
   * of an `HttpApi`) when known at synth, else the API construct's id
   */
  readonly apiName?: string;

  /**
   * The key of the entry in `custom` (`custom.<outputsKey>`). Letters, digits, hyphens and
   * underscores, starting with a letter; not one of the entry's own keys (`api_id`,
   * `api_endpoint`, `api_name`, `api_stage`, `vendor_region`, `api_kind`).
   * @default - the API name, when it is a valid key; else an error asks for one
   */
  readonly outputsKey?: string;
}

/** Options of `VendorOutputs.addRestApi`. */
export interface RestApiOutputOptions extends ApiOutputOptions {
  /**
   * The stage whose invoke URL (`https://<id>.execute-api.<region>.<suffix>/<stage>/`) the entry
   * holds. It must be a stage of the API.
   * @default - the API's `deploymentStage` (the stage `RestApi` and `SpecRestApi` deploy to)
   */
  readonly stage?: apigw.IStage;
}

/** Options of `VendorOutputs.addHttpApi`. */
export interface HttpApiOutputOptions extends ApiOutputOptions {
  /**
   * The stage whose invoke URL the entry holds: `https://<id>.execute-api.<region>.<suffix>/` for
   * the `$default` stage (no stage segment, as the service serves it), `.../<stage>/` for a named
   * stage. It must be a stage of the API.
   * @default - the API's default stage (`$default`, which `HttpApi` creates unless
   * `createDefaultStage` is false)
   */
  readonly stage?: apigwv2.IHttpStage;
}

/** Options of `VendorOutputs.addWebSocketApi`. */
export interface WebSocketApiOutputOptions extends ApiOutputOptions {
  /**
   * The stage whose URL (`wss://<id>.execute-api.<region>.<suffix>/<stage>/`) the entry holds. It
   * must be a stage of the API.
   * @default - the API's only `WebSocketStage` in the app; an error when it has none or several
   */
  readonly stage?: apigwv2.IWebSocketStage;
}

/** Options of `VendorOutputs.addFunctionUrl`. */
export interface FunctionUrlOutputOptions {
  /**
   * Name of the URL in the client configuration (`api_name`): the key of the client library's
   * REST section, so it must be known at synth (not a token) and unique in the backend.
   * @default - the id of the function the URL was added to (`fn.addFunctionUrl()`), else the
   * `FunctionUrl` construct's id
   */
  readonly apiName?: string;

  /**
   * The key of the entry in `custom` (`custom.<outputsKey>`), as for `addRestApi`.
   * @default - the API name, when it is a valid key; else an error asks for one
   */
  readonly outputsKey?: string;
}
