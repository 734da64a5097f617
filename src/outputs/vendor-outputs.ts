import { AspectPriority, Aspects, Stack, Token } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { IConstruct } from 'constructs';
import { ApiEntryValues, ApiEntryWriter, checkApiName, defaultSlot, writeApiEntry } from './api-entries/api-entry';
import { ApiOutputOptions, FunctionUrlOutputOptions, HttpApiOutputOptions, RestApiOutputOptions, WebSocketApiOutputOptions } from './api-entries/api-output-options';
import { functionUrlEntry, functionUrlName } from './api-entries/function-url-entry';
import { httpApiEntry, httpApiName } from './api-entries/http-api-entry';
import { restApiEntry, restApiName } from './api-entries/rest-api-entry';
import { webSocketApiEntry, webSocketApiName } from './api-entries/websocket-api-entry';
import { OUTPUTS_FILE_NAME } from './cdk-free/file-names';
import { OutputsCollector } from './collector';
import { checkFinalFilePath } from './final-file-path';
import { DocumentPublications } from './publication/document-publications';
import { PublishToBucketOptions } from './publication/publish-to-bucket-options';
import { BackendOutputs, OutputSection } from './sections/backend-outputs';
import { assemblyFileName, VendorOutputsWriter } from './writer';

/**
 * The entry point to a stack's vendor_outputs.json.
 *
 * `VendorOutputs.of(this).addOutput({ custom: { ... } })` adds a typed part of the file from
 * any construct. The first use in a stack installs the collector and the synth-time writer;
 * there is nothing else to set up.
 */
export class VendorOutputs {
  /**
   * Returns the outputs of the stack that contains `scope`. Contributions made through the
   * returned object are attributed to `scope`'s construct path in error messages.
   */
  public static of(scope: IConstruct): VendorOutputs {
    return new VendorOutputs(scope);
  }

  /**
   * The stack whose file this is: the stack that contains `scope`, or for a scope inside a
   * nested stack, its top-level parent (values from the nested stack reach it through
   * CloudFormation references, and only top-level stacks are deployed and read by `generate`).
   */
  public readonly stack: Stack;

  private constructor(private readonly scope: IConstruct) {
    let stack = Stack.of(scope);
    while (stack.nestedStackParent !== undefined) {
      stack = stack.nestedStackParent;
    }
    this.stack = stack;
  }

  /**
   * File name of this stack's document in the cloud assembly (`<artifact id>.vendor_outputs.json`).
   */
  public get assemblyFileName(): string {
    return assemblyFileName(this.stack);
  }

  /**
   * Adds a part of the document. Objects merge deeply with earlier parts; writing the same
   * value again is fine, another value is a conflict. Throws, naming the JSON pointer and the
   * construct paths, on unknown keys, managed keys, keys in the file's snake_case spelling in a
   * typed section, values that are not JSON data (a Date, Map, Set, RegExp, NaN, Infinity,
   * Symbol, function, BigInt, class instance, circular value), sections claimed by a producer,
   * conflicts, more than 400 distinct deploy-time values, and deploy-time tokens where the value
   * must be known at synth. A refused call changes nothing.
   */
  public addOutput(outputs: BackendOutputs): void {
    OutputsCollector.add(this.stack, outputs as Record<string, unknown>, this.scope.node.path, () => this.collector());
  }

  /**
   * Adds a REST API (aws-apigateway `RestApi`, `SpecRestApi`, or an imported one with a `stage`)
   * to the `custom` section, as the entry the client helper `toRestConfig` reads and the sandbox
   * points at the local server:
   * `custom.<outputsKey> = { api_name, api_endpoint, api_kind: 'rest', vendor_region, api_id, api_stage }`,
   * where `api_endpoint` is the stage's invoke URL ending with `/`.
   *
   * Throws, naming this scope's path and the API's, when the API has no stage to point at, the
   * stage belongs to another API, the API disables its execute-api endpoint, the name is a token
   * or blank, the `outputsKey` is not a valid key, or another API of the backend already has the
   * name or the key; then nothing is written.
   *
   * @param api the REST API
   * @param options name, key in `custom` and stage
   */
  public addRestApi(api: apigw.IRestApi, options: RestApiOutputOptions = {}): void {
    const writer = this.apiWriter('addRestApi', api);
    const apiName = options.apiName ?? restApiName(api) ?? api.node.id;
    checkApiName(apiName, writer);
    this.addApiEntry(restApiEntry(api, apiName, options.stage, writer), options, writer);
  }

  /**
   * Adds an HTTP API (aws-apigatewayv2 `HttpApi`, or an imported one with a `stage`) to the
   * `custom` section, as the entry the client helper `toRestConfig` reads and the sandbox points
   * at the local server:
   * `custom.<outputsKey> = { api_name, api_endpoint, api_kind: 'http', vendor_region, api_id, api_stage }`,
   * where `api_endpoint` is the stage's invoke URL ending with `/` (the `$default` stage has no
   * stage segment).
   *
   * Throws, naming this scope's path and the API's, when the API has no stage to point at, the
   * stage belongs to another API or its name is a token, the API disables its execute-api
   * endpoint, the name is a token or blank, the `outputsKey` is not a valid key, or another API of
   * the backend already has the name or the key; then nothing is written.
   *
   * @param api the HTTP API
   * @param options name, key in `custom` and stage
   */
  public addHttpApi(api: apigwv2.IHttpApi, options: HttpApiOutputOptions = {}): void {
    const writer = this.apiWriter('addHttpApi', api);
    const apiName = options.apiName ?? httpApiName(api) ?? api.node.id;
    checkApiName(apiName, writer);
    this.addApiEntry(httpApiEntry(api, apiName, options.stage, writer), options, writer);
  }

  /**
   * Adds a WebSocket API (aws-apigatewayv2 `WebSocketApi`) to the `custom` section, as the entry
   * the sandbox points at the local server:
   * `custom.<outputsKey> = { api_name, api_endpoint, api_kind: 'websocket', vendor_region, api_id, api_stage }`,
   * where `api_endpoint` is the URL clients connect to, `wss://<id>.execute-api.<region>.<suffix>/<stage>/`.
   * The client helper `toRestConfig` leaves WebSocket entries out of the REST section.
   *
   * Throws, naming this scope's path and the API's, when no stage is given and the API has none or
   * several, the stage belongs to another API or its name is a token, the name is a token or
   * blank, the `outputsKey` is not a valid key, or another API of the backend already has the name
   * or the key; then nothing is written.
   *
   * @param api the WebSocket API
   * @param options name, key in `custom` and stage
   */
  public addWebSocketApi(api: apigwv2.IWebSocketApi, options: WebSocketApiOutputOptions = {}): void {
    const writer = this.apiWriter('addWebSocketApi', api);
    const apiName = options.apiName ?? webSocketApiName(api) ?? api.node.id;
    checkApiName(apiName, writer);
    this.addApiEntry(webSocketApiEntry(api, apiName, options.stage, writer), options, writer);
  }

  /**
   * Adds a Lambda function URL (aws-lambda `FunctionUrl`, what `Function.addFunctionUrl` returns)
   * to the `custom` section, as the entry the client helper `toRestConfig` reads and the sandbox
   * points at the local server:
   * `custom.<outputsKey> = { api_name, api_endpoint, api_kind: 'function_url', vendor_region }`,
   * where `api_endpoint` is the URL, `https://<url-id>.lambda-url.<region>.on.aws/`.
   *
   * Throws, naming this scope's path and the URL's, when the name is a token or blank, the
   * `outputsKey` is not a valid key, or another API of the backend already has the name or the
   * key; then nothing is written.
   *
   * @param url the function URL
   * @param options name and key in `custom`
   */
  public addFunctionUrl(url: lambda.IFunctionUrl, options: FunctionUrlOutputOptions = {}): void {
    const writer = this.apiWriter('addFunctionUrl', url);
    const apiName = options.apiName ?? functionUrlName(url);
    checkApiName(apiName, writer);
    this.addApiEntry(functionUrlEntry(url, apiName), options, writer);
  }

  /**
   * Makes `scope` the producer of `section`: afterwards only `scope` (and constructs inside it)
   * may write into it. For constructs that generate a section from a real definition.
   */
  public claim(section: OutputSection): void {
    this.collector().claim(section, this.scope.node.path);
  }

  /**
   * The construct path of the producer that owns `section` in this backend (see `claim`), or
   * undefined when the section has none.
   */
  public producerOf(section: OutputSection): string | undefined {
    return OutputsCollector.find(this.stack)?.producerOf(section);
  }

  /**
   * Reserves `name` among the names of `kind` for `scope`, once per backend (top-level stack, nested stacks
   * included): for constructs whose names must be unique in a backend, such as an API name.
   * Reserving a name `scope` already holds is fine. Throws, naming the holder, when another
   * construct holds it; check with `reservedBy` first for a message of your own.
   *
   * @param kind what kind of name, e.g. `JobQueue.queueName` (not `namespace`: a word C# reserves)
   * @param name the name to reserve
   */
  public reserve(kind: string, name: string): void {
    this.collector().reserve(kind, name, this.scope.node.path);
  }

  /**
   * The construct path that reserved `name` among the names of `kind` in this backend, or undefined.
   *
   * @param kind what kind of name, e.g. `JobQueue.queueName`
   * @param name the name to look up
   */
  public reservedBy(kind: string, name: string): string | undefined {
    return OutputsCollector.find(this.stack)?.reservedBy(kind, name);
  }

  /**
   * Also writes the final file to `filePath` (relative to the working directory of the synth),
   * where the frontend reads it, when no value is pending until deploy. Written, like the file
   * in the cloud assembly, only when the whole app has validated.
   *
   * Throws when `filePath` is empty, a token, holds a NUL byte, names a folder or lies under a
   * file, or when this backend already writes its final file elsewhere. Two backends of an app
   * that write to the same file fail the synth, naming both stacks.
   */
  public writeFinalFileTo(filePath: string): void {
    const where = this.scope.node.path || '(app)';
    if (typeof filePath === 'string' && Token.isUnresolved(filePath)) {
      throw new Error(`${where}: writeFinalFileTo needs a path known at synth (got the token ${filePath})`);
    }
    const absolute = checkFinalFilePath(filePath, where);
    const collector = this.collector();
    const current = collector.outputFile;
    if (current !== undefined && current.path !== absolute) {
      throw new Error(`${where}: writeFinalFileTo(${JSON.stringify(filePath)}): stack ${this.stack.node.path} already writes its final file to ${current.path} `
        + `(asked by ${current.source}); a backend has one final file`);
    }
    collector.outputFile ??= { path: absolute, source: where };
  }

  /**
   * Publishes the final document into an S3 object at deploy time: one `cdk deploy` leaves the
   * file, with every deploy-time value filled in, where a frontend hosted from `bucket` reads it.
   *
   * aws-cdk-lib's BucketDeployment writes it (its handler substitutes the deploy-time values,
   * JSON-escaped); only this object is written (no pruning), as `application/json` with
   * `Cache-Control: no-cache`. Publishing the same object again is a no-op.
   *
   * Throws when `key` is empty, a token, or not a plain S3 key (S3's safe characters, no leading
   * or trailing `/`, no `.`/`..` segments).
   *
   * @param bucket the bucket to write to (for example the bucket a CloudFront site serves)
   * @param key the object key (default: `vendor_outputs.json`)
   * @param options invalidation of a CloudFront distribution
   */
  public publishToBucket(bucket: s3.IBucket, key?: string, options?: PublishToBucketOptions): void {
    const where = this.scope.node.path || '(app)';
    const objectKey = key ?? OUTPUTS_FILE_NAME;
    if (Token.isUnresolved(objectKey)) {
      throw new Error(`${where}: publishToBucket needs an object key known at synth (got the token ${objectKey})`);
    }
    DocumentPublications.of(this.collector()).toBucket(bucket, objectKey, options ?? {}, where);
  }

  /**
   * Publishes the final document into an SSM String parameter at deploy time: CloudFormation
   * writes it, with every deploy-time value filled in, for frontends and pipelines that read
   * configuration from Parameter Store.
   *
   * Without a `tier`, the tier follows the size: standard (4,096 characters) when the document
   * fits, advanced (8,192) when it does not, intelligent-tiering when deploy-time values may tip
   * it over. A larger document fails the synth (publish it with `publishToBucket`). CloudFormation
   * has no JSON escaping: deploy-time values are inserted as they are, which suits resource
   * attributes (ids, ARNs, URLs, names); a value that may hold `"` or `\` belongs in
   * `publishToBucket`, which escapes.
   *
   * Throws when `parameterName` is empty, a token, or breaks Parameter Store's naming rules.
   *
   * @param parameterName the parameter's name, e.g. `/my-app/main/vendor_outputs`
   * @param tier the parameter tier (default: chosen by size, as above)
   */
  public publishToParameter(parameterName: string, tier?: ssm.ParameterTier): void {
    const where = this.scope.node.path || '(app)';
    if (Token.isUnresolved(parameterName)) {
      throw new Error(`${where}: publishToParameter needs a parameter name known at synth (got the token ${parameterName})`);
    }
    DocumentPublications.of(this.collector()).toParameter(parameterName, tier, where);
  }

  /** Who adds an API entry, for messages: `addRestApi(Backend/Api) from Backend/Web`. */
  private apiWriter(label: string, api: IConstruct): ApiEntryWriter {
    return { label, description: `${label}(${api.node.path}) from ${this.scope.node.path || '(app)'}` };
  }

  /** Writes the entry under `custom.<outputsKey>`, the key defaulting to the API name. */
  private addApiEntry(values: ApiEntryValues, options: ApiOutputOptions | FunctionUrlOutputOptions, writer: ApiEntryWriter): void {
    const slot = options.outputsKey ?? defaultSlot(values.api_name);
    if (slot === undefined) {
      throw new Error(`${writer.description}: the API name ${JSON.stringify(values.api_name)} cannot be the entry's key in custom; pass { outputsKey } (a letter, then letters, digits, hyphens or underscores)`);
    }
    if (slot === '') {
      throw new Error(`${writer.description}: outputsKey must start with a letter and have 1 to 128 letters, digits, hyphens or underscores (got "")`);
    }
    writeApiEntry(this, values, { slot, writer });
  }

  private collector(): OutputsCollector {
    const existing = OutputsCollector.find(this.stack);
    if (existing) {
      return existing;
    }
    const collector = new OutputsCollector(this.stack);
    Aspects.of(collector).add(new VendorOutputsWriter(collector), { priority: AspectPriority.READONLY });
    return collector;
  }
}
