import { Annotations, CfnResource, FeatureFlags, Stack, Token } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { CfnIdentityPool } from 'aws-cdk-lib/aws-cognito';
import { IdentityPool } from 'aws-cdk-lib/aws-cognito-identitypool';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { BUNDLED_FUNCTION_DEFAULT_RUNTIME, checkBundledFunctionRuntime, createBundledFunction } from './rest-items-api-bundled-function';
import { API_ENTRY_KEYS, ApiEntryWriter, checkApiEntryPlace, writeApiEntry } from '../outputs/api-entries/api-entry';
import { restApiEntry } from '../outputs/api-entries/rest-api-entry';
import { addNagSuppressions } from '../outputs/nag-metadata';
import { VendorOutputs } from '../outputs/vendor-outputs';

/** Who may call a {@link RestItemsApi}. */
export enum RestItemsApiAuthorization {
  /**
   * No authorization: anyone who knows the URL (a terminal client such as curl, a browser
   * of a signed-out user) may call every method.
   */
  NONE = 'NONE',
  /**
   * IAM (SigV4-signed requests): only principals granted `execute-api:Invoke`, for example an
   * identity pool's roles, may call the methods.
   */
  IAM = 'IAM',
}

/** Properties of a {@link RestItemsApi}. */
export interface RestItemsApiProps {
  /**
   * Name of the REST API, written as `custom.api_name`: the key of the client library's REST
   * section, so it must be known at synth (not a token) and unique in the backend.
   * @default - the construct id
   */
  readonly apiName?: string;

  /**
   * Name of the stage; the API is reached at `<api_endpoint>` = `https://<id>.execute-api.<region>.amazonaws.com/<stageName>/`.
   * Letters, digits, hyphens and underscores, 1 to 128 characters.
   * @default 'dev'
   */
  readonly stageName?: string;

  /**
   * The function behind every non-OPTIONS method (Lambda proxy integration).
   * @default - the library's bundled items function (see `runtime`)
   */
  readonly handler?: lambda.IFunction;

  /**
   * Runtime of the bundled items function: a Node.js runtime, `nodejs20.x` or newer (the
   * bundle is JavaScript built for Node.js 20 and newer). Only for the bundled function: with
   * `handler`, set the runtime on your own function.
   * @default lambda.Runtime.NODEJS_22_X - the newest Node.js runtime that aws-cdk-lib 2.189.1,
   * the oldest aws-cdk-lib this library supports, knows and that Lambda still lets you create
   * (`nodejs20.x` was deprecated on 2026-04-30; for `nodejs22.x` Lambda projects deprecation on
   * 2027-04-30 and the end of function creation on 2027-06-01). With a newer aws-cdk-lib, pass
   * `lambda.Runtime.NODEJS_24_X`.
   */
  readonly runtime?: lambda.Runtime;

  /**
   * Where this API's values go in the `custom` section of vendor_outputs.json. Without it the
   * keys `api_id`, `api_endpoint`, `api_name`, `api_stage` and `vendor_region` are written at
   * the root of `custom` (the spec's flat shape, one API per backend); with it they are
   * written under `custom.<outputsKey>`. Give each API of a backend its own key.
   * Letters, digits, hyphens and underscores, starting with a letter.
   * @default - the flat keys at the root of `custom`
   */
  readonly outputsKey?: string;

  /**
   * Who may call the API.
   * @default RestItemsApiAuthorization.NONE
   */
  readonly authorization?: RestItemsApiAuthorization;

  /**
   * With `RestItemsApiAuthorization.IAM`: the identity pool whose authenticated role (and,
   * when `allowGuests` is true, unauthenticated role) is granted `execute-api:Invoke` on
   * exactly this API's `/items` and `/items/*` in its stage.
   * @default - no role is granted access; call `grantInvoke` yourself
   */
  readonly identityPool?: IdentityPool;

  /**
   * With `RestItemsApiAuthorization.IAM` and an `identityPool`: whether the pool's
   * unauthenticated (guest) role may call the API too.
   * @default - true when the identity pool allows unauthenticated identities
   */
  readonly allowGuests?: boolean;

  /**
   * Origins allowed by the CORS preflight (and echoed by the default function).
   * @default - any origin (`*`)
   */
  readonly allowOrigins?: string[];

  /**
   * Validate requests in API Gateway before they reach the function: `POST /items` bodies sent
   * as `application/json` must be a JSON object with a non-empty string `name`.
   * Turn off when your own handler accepts other bodies.
   * @default true
   */
  readonly requestValidation?: boolean;

  /**
   * Write an access log (JSON with the standard fields) for the stage to a new log group.
   * @default true
   */
  readonly accessLogging?: boolean;

  /**
   * How long the access log is kept.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly accessLogRetention?: logs.RetentionDays;

  /**
   * Create the account-level role API Gateway needs to write logs (an
   * `AWS::ApiGateway::Account` resource, one per account and region). The stage's execution and
   * access logs need that role to be set in the account: leave it off when the account already
   * has one.
   * @default - false when the feature flag `@aws-cdk/aws-apigateway:disableCloudWatchRole` is
   * enabled (as in apps created by `cdk init`), true otherwise; the same rule as `RestApi`
   */
  readonly cloudWatchRole?: boolean;

  /**
   * Stage options, applied over this construct's defaults (throttling 100 requests/s with
   * bursts of 200, X-Ray tracing, ERROR execution logging, metrics, the access log).
   * `stageName` is refused here: use the `stageName` prop.
   * @default - the defaults above
   */
  readonly deployOptions?: apigw.StageOptions;
}

/** The props with their defaults, checked. */
interface RestItemsApiSettings {
  readonly apiName: string;
  readonly stageName: string;
  readonly authorization: RestItemsApiAuthorization;
  readonly allowOrigins: string[];
  /** Whether the identity pool's unauthenticated role is granted access too. */
  readonly allowGuests: boolean;
}

/** A request validator and the model POST /items bodies are checked against. */
interface RequestValidation {
  readonly validator: apigw.RequestValidator;
  readonly newItemModel: apigw.Model;
}

/** Id of the warning that the stage logs while the feature flag turned the account's logging role off. */
const ACCOUNT_ROLE_WARNING = 'cdk-vendor-outputs:api-gateway-account-role';

/**
 * A REST API with `/items` (GET, POST, PUT, DELETE and a CORS preflight OPTIONS) and a greedy
 * proxy resource `/items/{proxy+}` (ANY and OPTIONS), every non-OPTIONS method a Lambda proxy
 * integration, in one stage; writes its API entry (`custom.api_id`, `custom.api_endpoint`,
 * `custom.api_name`, `custom.api_stage`, `custom.vendor_region` and `custom.api_kind`, the shape
 * `VendorOutputs.addRestApi` writes) to vendor_outputs.json (under `custom.<outputsKey>` when
 * `outputsKey` is set).
 *
 * @example
 * const api = new RestItemsApi(this, 'ItemsApi', { stageName: 'dev' });
 */
export class RestItemsApi extends Construct {
  /** The REST API. */
  public readonly api: apigw.RestApi;
  /** The function behind the API. */
  public readonly handler: lambda.IFunction;
  /** The stage the API is deployed to. */
  public readonly stage: apigw.Stage;
  /** The `/items` resource. */
  public readonly itemsResource: apigw.Resource;
  /** The `/items/{proxy+}` resource. */
  public readonly proxyResource: apigw.ProxyResource;
  /** The access log group, when access logging is on. */
  public readonly accessLogGroup?: logs.ILogGroup;
  /** Name of the API (`custom.api_name`). */
  public readonly apiName: string;
  /** Name of the stage (`custom.api_stage`). */
  public readonly stageName: string;
  /** Invoke URL including the stage, ending with `/` (`custom.api_endpoint`). */
  public readonly apiEndpoint: string;
  /** Where in `custom` this API's values are, or undefined for the flat shape. */
  public readonly outputsKey?: string;
  /** Who may call the API. */
  public readonly authorization: RestItemsApiAuthorization;

  constructor(scope: Construct, id: string, props: RestItemsApiProps = {}) {
    super(scope, id);
    const settings = parseProps(this.node.path, id, props);
    // Checked before anything is created: a refused API leaves no half-built construct behind.
    checkApiEntryPlace(VendorOutputs.of(this), settings.apiName, { slot: props.outputsKey ?? '', writer: this.outputsWriter() });
    this.apiName = settings.apiName;
    this.stageName = settings.stageName;
    this.outputsKey = props.outputsKey;
    this.authorization = settings.authorization;

    this.handler = props.handler ?? createBundledFunction(this, 'Handler', {
      runtime: props.runtime ?? BUNDLED_FUNCTION_DEFAULT_RUNTIME,
      allowOrigins: settings.allowOrigins,
    });
    this.accessLogGroup = this.renderAccessLogGroup(props);
    this.api = this.renderRestApi(props, settings);
    this.stage = this.api.deploymentStage;
    this.apiEndpoint = this.api.url;

    this.itemsResource = this.addItemsResource(settings.allowOrigins);
    this.addItemsMethods(props.requestValidation ?? true);
    this.proxyResource = this.itemsResource.addProxy({ anyMethod: true });
    if (settings.allowOrigins.includes('*')) {
      this.addCorsGatewayResponses();
    }
    if (settings.authorization === RestItemsApiAuthorization.NONE) {
      this.addGuestAccessSuppressions();
    }
    if (props.identityPool) {
      this.grantIdentityPool(props.identityPool, settings.allowGuests);
    }
    this.addOutputs();
  }

  /** The stage's access log group, unless access logging is off. */
  private renderAccessLogGroup(props: RestItemsApiProps): logs.ILogGroup | undefined {
    if (!(props.accessLogging ?? true)) {
      return undefined;
    }
    return new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? logs.RetentionDays.ONE_MONTH,
    });
  }

  /** The REST API and its stage: this construct's stage defaults, then `deployOptions`, then the stage name. */
  private renderRestApi(props: RestItemsApiProps, settings: RestItemsApiSettings): apigw.RestApi {
    return new apigw.RestApi(this, 'Resource', {
      restApiName: settings.apiName,
      description: 'Items REST API (cdk-vendor-outputs RestItemsApi)',
      cloudWatchRole: this.cloudWatchRoleOf(props),
      deployOptions: {
        throttlingRateLimit: 100,
        throttlingBurstLimit: 200,
        tracingEnabled: true,
        metricsEnabled: true,
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        ...this.renderAccessLogOptions(),
        ...props.deployOptions,
        stageName: settings.stageName,
      },
      defaultMethodOptions: {
        authorizationType: settings.authorization === RestItemsApiAuthorization.IAM ? apigw.AuthorizationType.IAM : apigw.AuthorizationType.NONE,
      },
    });
  }

  /** Stage options that send the access log to the log group, when there is one. */
  private renderAccessLogOptions(): apigw.StageOptions {
    if (this.accessLogGroup === undefined) {
      return {};
    }
    return {
      accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogGroup),
      accessLogFormat: apigw.AccessLogFormat.jsonWithStandardFields(),
    };
  }

  /** `/items`, whose methods default to the function's proxy integration, with its CORS preflight. */
  private addItemsResource(allowOrigins: string[]): apigw.Resource {
    return this.api.root.addResource('items', {
      defaultIntegration: new apigw.LambdaIntegration(this.handler, { proxy: true }),
      defaultCorsPreflightOptions: {
        allowOrigins,
        allowMethods: apigw.Cors.ALL_METHODS,
        allowHeaders: apigw.Cors.DEFAULT_HEADERS,
      },
    });
  }

  /** GET, DELETE, PUT and POST on `/items`; GET and POST checked by API Gateway when `validate`. */
  private addItemsMethods(validate: boolean): void {
    const validation = validate ? this.addRequestValidation() : undefined;
    this.itemsResource.addMethod('GET', undefined, {
      requestParameters: { 'method.request.querystring.limit': false },
      requestValidator: validation?.validator,
    });
    this.itemsResource.addMethod('DELETE');
    this.itemsResource.addMethod('PUT');
    this.itemsResource.addMethod('POST', undefined, {
      requestValidator: validation?.validator,
      requestModels: validation ? { 'application/json': validation.newItemModel } : undefined,
    });
  }

  /** The request validator (body and parameters) and the model of a new item's body. */
  private addRequestValidation(): RequestValidation {
    const validator = this.api.addRequestValidator('RequestValidator', {
      validateRequestBody: true,
      validateRequestParameters: true,
    });
    const newItemModel = this.api.addModel('NewItemModel', {
      contentType: 'application/json',
      description: 'A new item: a JSON object with a non-empty string name',
      schema: {
        schema: apigw.JsonSchemaVersion.DRAFT4,
        title: 'NewItem',
        type: apigw.JsonSchemaType.OBJECT,
        required: ['name'],
        properties: { name: { type: apigw.JsonSchemaType.STRING, minLength: 1 } },
      },
    });
    return { validator, newItemModel };
  }

  /**
   * Errors that API Gateway answers itself (validation, throttling, auth) keep the CORS headers,
   * so that browsers can read them. Only when any origin is allowed.
   */
  private addCorsGatewayResponses(): void {
    const corsHeaders = { 'Access-Control-Allow-Origin': "'*'", 'Access-Control-Allow-Headers': "'*'" };
    this.api.addGatewayResponse('Default4xx', { type: apigw.ResponseType.DEFAULT_4XX, responseHeaders: corsHeaders });
    this.api.addGatewayResponse('Default5xx', { type: apigw.ResponseType.DEFAULT_5XX, responseHeaders: corsHeaders });
  }

  /** cdk-nag suppressions on every non-OPTIONS method of an API without authorization, with the reason. */
  private addGuestAccessSuppressions(): void {
    for (const method of this.api.methods) {
      if (method.httpMethod !== 'OPTIONS') {
        addNagSuppressions(method.node.defaultChild as CfnResource, [
          { id: 'AwsSolutions-APIG4', reason: 'Guest access by design (RestItemsApiAuthorization.NONE): the spec\'s terminal tests call the API unauthenticated. Use RestItemsApiAuthorization.IAM to require signed requests.' },
          { id: 'AwsSolutions-COG4', reason: 'Guest access by design (RestItemsApiAuthorization.NONE): no Cognito user pool authorizer. Use RestItemsApiAuthorization.IAM with an identity pool to lock the API down.' },
        ]);
      }
    }
  }

  /** The identity pool's authenticated role, and its guest role when guests are allowed, may invoke. */
  private grantIdentityPool(pool: IdentityPool, allowGuests: boolean): void {
    this.grantInvoke(pool.authenticatedRole);
    if (allowGuests) {
      this.grantInvoke(pool.unauthenticatedRole);
    }
  }

  /**
   * This API's entry in `custom` (the shape `VendorOutputs.addRestApi` writes): flat, or under
   * `custom.<outputsKey>`. Throws when another API of the backend has the place or the name.
   */
  private addOutputs(): void {
    const writer = this.outputsWriter();
    writeApiEntry(VendorOutputs.of(this), restApiEntry(this.api, this.apiName, this.stage, writer), { slot: this.outputsKey ?? '', writer });
  }

  /** This construct as the writer of its entry, in messages. */
  private outputsWriter(): ApiEntryWriter {
    return { label: 'RestItemsApi', description: `RestItemsApi ${this.node.path}` };
  }

  /**
   * The `cloudWatchRole` prop, else RestApi's default: off when the feature flag
   * `@aws-cdk/aws-apigateway:disableCloudWatchRole` is enabled. Warns when the flag turns the
   * role off while the stage logs, as such a stage deploys only where the account has the role.
   */
  private cloudWatchRoleOf(props: RestItemsApiProps): boolean {
    if (props.cloudWatchRole !== undefined) {
      return props.cloudWatchRole;
    }
    if (!FeatureFlags.of(this).isEnabled(cxapi.APIGATEWAY_DISABLE_CLOUDWATCH_ROLE)) {
      return true;
    }
    const executionLogging = (props.deployOptions?.loggingLevel ?? apigw.MethodLoggingLevel.ERROR) !== apigw.MethodLoggingLevel.OFF;
    const accessLogging = this.accessLogGroup !== undefined || props.deployOptions?.accessLogDestination !== undefined;
    if (executionLogging || accessLogging) {
      Annotations.of(this).addWarningV2(ACCOUNT_ROLE_WARNING, 'cloudWatchRole is off (feature flag @aws-cdk/aws-apigateway:disableCloudWatchRole), '
        + 'but the stage writes execution or access logs, which need the API Gateway CloudWatch Logs role of the account and region: '
        + 'without it the deploy fails with "CloudWatch Logs role ARN must be set in account settings to enable logging". '
        + 'Set cloudWatchRole: true in one stack per account and region, or turn the logs off (accessLogging: false, deployOptions.loggingLevel OFF).');
    }
    return false;
  }

  /**
   * ARNs that cover every method of `/items` and `/items/*` in this API's stage, and nothing else.
   */
  public get invokeArns(): string[] {
    return [
      this.api.arnForExecuteApi('*', '/items', this.stage.stageName),
      this.api.arnForExecuteApi('*', '/items/*', this.stage.stageName),
    ];
  }

  /**
   * Grants `execute-api:Invoke` on exactly this API's `/items` and `/items/*` in its stage.
   * Only takes effect with `RestItemsApiAuthorization.IAM` (without authorization anyone may call).
   */
  public grantInvoke(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['execute-api:Invoke'],
      resourceArns: this.invokeArns,
    });
  }
}

/** The props with their defaults; throws on a prop that cannot be used. */
function parseProps(path: string, id: string, props: RestItemsApiProps): RestItemsApiSettings {
  const apiName = props.apiName ?? id;
  const stageName = props.stageName ?? 'dev';
  const authorization = props.authorization ?? RestItemsApiAuthorization.NONE;
  validateProps(path, apiName, stageName, authorization, props);
  const allowGuests = authorization === RestItemsApiAuthorization.IAM && props.identityPool !== undefined
    ? resolveAllowGuests(path, props.identityPool, props.allowGuests)
    : false;
  return { apiName, stageName, authorization, allowOrigins: props.allowOrigins ?? apigw.Cors.ALL_ORIGINS, allowGuests };
}

function validateProps(path: string, apiName: string, stageName: string, authorization: RestItemsApiAuthorization, props: RestItemsApiProps): void {
  if (Token.isUnresolved(apiName)) {
    throw new Error(`${path}: apiName must be known at synth (got the token ${apiName}): it is the key of the client's REST section`);
  }
  if (apiName.trim() === '' || apiName.length > 1024) {
    throw new Error(`${path}: apiName must have 1 to 1024 characters and not be blank (got ${JSON.stringify(apiName)})`);
  }
  if (!Token.isUnresolved(stageName) && !/^[A-Za-z0-9_-]{1,128}$/.test(stageName)) {
    throw new Error(`${path}: stageName must have 1 to 128 letters, digits, hyphens or underscores (got ${JSON.stringify(stageName)})`);
  }
  if (props.outputsKey !== undefined) {
    if (Token.isUnresolved(props.outputsKey)) {
      throw new Error(`${path}: outputsKey must be known at synth (got the token ${props.outputsKey})`);
    }
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,127}$/.test(props.outputsKey)) {
      throw new Error(`${path}: outputsKey must start with a letter and have 1 to 128 letters, digits, hyphens or underscores (got ${JSON.stringify(props.outputsKey)})`);
    }
    if (API_ENTRY_KEYS.includes(props.outputsKey)) {
      throw new Error(`${path}: outputsKey cannot be '${props.outputsKey}', a key of the flat shape (${API_ENTRY_KEYS.join(', ')})`);
    }
  }
  if (authorization !== RestItemsApiAuthorization.IAM) {
    if (props.identityPool !== undefined) {
      throw new Error(`${path}: identityPool is only used with authorization RestItemsApiAuthorization.IAM (got ${authorization}); without authorization anyone may call the API`);
    }
    if (props.allowGuests !== undefined) {
      throw new Error(`${path}: allowGuests is only used with authorization RestItemsApiAuthorization.IAM and an identityPool (got ${authorization})`);
    }
  } else if (props.allowGuests !== undefined && props.identityPool === undefined) {
    throw new Error(`${path}: allowGuests needs an identityPool whose unauthenticated role is granted access`);
  }
  if (props.deployOptions?.stageName !== undefined) {
    throw new Error(`${path}: deployOptions.stageName is not used: set the stage name with the stageName prop (got deployOptions.stageName ${JSON.stringify(props.deployOptions.stageName)})`);
  }
  if (props.runtime !== undefined) {
    if (props.handler !== undefined) {
      throw new Error(`${path}: runtime is only used for the bundled items function; with handler, set the runtime on your own function`);
    }
    checkBundledFunctionRuntime(path, props.runtime);
  }
  if (props.allowOrigins !== undefined) {
    if (props.allowOrigins.length === 0) {
      throw new Error(`${path}: allowOrigins must list at least one origin (or '*' for any origin)`);
    }
    for (const origin of props.allowOrigins) {
      if (!Token.isUnresolved(origin) && origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
        throw new Error(`${path}: allowOrigins entries must be '*' or an origin such as 'https://example.com' (scheme and host, no path); got ${JSON.stringify(origin)}`);
      }
    }
  }
}

/** Whether guests may call: the prop, else the identity pool's setting. */
function resolveAllowGuests(path: string, pool: IdentityPool, allowGuests: boolean | undefined): boolean {
  const cfn = pool.node.defaultChild as CfnIdentityPool | undefined;
  const poolAllows = cfn ? Stack.of(pool).resolve(cfn.allowUnauthenticatedIdentities) : undefined;
  if (allowGuests === true && poolAllows === false) {
    throw new Error(`${path}: allowGuests is true but identity pool ${pool.node.path} does not allow unauthenticated identities; `
      + 'set allowUnauthenticatedIdentities: true on the pool or drop allowGuests');
  }
  return allowGuests ?? poolAllows === true;
}
