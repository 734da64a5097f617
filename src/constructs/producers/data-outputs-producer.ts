import { CfnResource, Stack, Token } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import { Construct, IConstruct } from 'constructs';
import { amplifyApiParts, isAmplifyGraphqlApi } from './amplify-graphql-api';
import { ModelIntrospection } from './model-introspection';
import { OutputSection } from '../../outputs/sections/backend-outputs';
import { DataAuthorizationType, DataOutputs } from '../../outputs/sections/data';
import { VendorOutputs } from '../../outputs/vendor-outputs';

/** Properties of a {@link DataOutputsProducer}. */
export interface DataOutputsProducerProps {
  /**
   * The AppSync GraphQL API the frontend's data client talks to (aws-cdk-lib's `GraphqlApi`).
   * Give one of `api`, `amplifyApi` and `cfnApi`.
   * @default - `amplifyApi` or `cfnApi`
   */
  readonly api?: appsync.GraphqlApi;

  /**
   * An `AmplifyGraphqlApi` (`@aws-amplify/graphql-api-construct`): its API resource
   * (`resources.cfnResources.cfnGraphqlApi`) and API key (`apiKey`) are read from it.
   * @default - `api` or `cfnApi`
   */
  readonly amplifyApi?: IConstruct;

  /**
   * The API as its CloudFormation resource, for GraphQL APIs built by other constructs: with
   * `AmplifyGraphqlApi` (`@aws-amplify/graphql-api-construct`), pass
   * `api.resources.cfnResources.cfnGraphqlApi` and `apiKey: api.apiKey`.
   * Its authentication types must be known at synth.
   * @default - `api` or `amplifyApi`
   */
  readonly cfnApi?: appsync.CfnGraphQLApi;

  /**
   * The API key, with `cfnApi` when the API has API_KEY authorization (`AmplifyGraphqlApi`:
   * `api.apiKey`). With `api`, the key is read from the API.
   * @default - none
   */
  readonly apiKey?: string;

  /**
   * Model introspection document for the data client, written as `data.model_introspection`:
   * `ModelIntrospection.fromSchemaFile('schema.graphql')` generates it from the API's schema.
   * @default - not written
   */
  readonly modelIntrospection?: ModelIntrospection;
}

/** AppSync authorization types → the schema's names. */
const AUTHORIZATION_TYPES: Record<string, DataAuthorizationType> = {
  [appsync.AuthorizationType.API_KEY]: DataAuthorizationType.API_KEY,
  [appsync.AuthorizationType.IAM]: DataAuthorizationType.VENDOR_IAM,
  [appsync.AuthorizationType.USER_POOL]: DataAuthorizationType.VENDOR_USER_POOLS,
  [appsync.AuthorizationType.OIDC]: DataAuthorizationType.OPENID_CONNECT,
  [appsync.AuthorizationType.LAMBDA]: DataAuthorizationType.VENDOR_LAMBDA,
};

/**
 * Produces the `data` section of vendor_outputs.json from an AppSync GraphQL API (URL, region,
 * default and additional authorization types, the API key when API_KEY is enabled) and owns it.
 *
 * @example
 * new DataOutputsProducer(this, 'Data', { api });
 */
export class DataOutputsProducer extends Construct {
  /** The section as written (values may be tokens until deploy). */
  public readonly outputs: DataOutputs;

  constructor(scope: Construct, id: string, props: DataOutputsProducerProps) {
    super(scope, id);
    const api = this.describeApi(props);
    const modes = api.modes.map((mode) => {
      const mapped = AUTHORIZATION_TYPES[mode];
      if (mapped === undefined) {
        throw new Error(`${this.node.path}: the GraphQL API ${api.path} uses authorization type ${mode}, which vendor_outputs.json cannot describe; allowed: ${Object.keys(AUTHORIZATION_TYPES).join(', ')}`);
      }
      return mapped;
    });
    const authorizationTypes = [...new Set(modes)];
    const usesApiKey = authorizationTypes.includes(DataAuthorizationType.API_KEY);
    if (usesApiKey && api.apiKey === undefined) {
      throw new Error(`${this.node.path}: the GraphQL API ${api.path} has API_KEY authorization but no key was given: pass it as apiKey with cfnApi, or the AmplifyGraphqlApi as amplifyApi`);
    }
    if (!usesApiKey && props.apiKey !== undefined) {
      throw new Error(`${this.node.path}: apiKey is given but the GraphQL API ${api.path} has no API_KEY authorization (it has ${api.modes.join(', ')})`);
    }
    this.outputs = {
      vendorRegion: api.region,
      url: api.url,
      defaultAuthorizationType: modes[0] ?? DataAuthorizationType.API_KEY,
      authorizationTypes,
      apiKey: usesApiKey ? api.apiKey : undefined,
      modelIntrospection: introspectionDocument(props.modelIntrospection),
    };
    VendorOutputs.of(this).claim(OutputSection.DATA);
    VendorOutputs.of(this).addOutput({ data: this.outputs });
  }

  /** What the section needs of the API, from `api`, `amplifyApi` or `cfnApi`. */
  private describeApi(propsAsGiven: DataOutputsProducerProps): ApiDescription {
    const props = this.apiPropsByKind(propsAsGiven);
    const given = [props.api && 'api', props.amplifyApi && 'amplifyApi', props.cfnApi && 'cfnApi'].filter((name) => name !== undefined);
    if (given.length !== 1) {
      throw new Error(`${this.node.path}: give the GraphQL API as one of api (GraphqlApi), amplifyApi (AmplifyGraphqlApi) or cfnApi (CfnGraphQLApi)`
        + `${given.length > 1 ? `, not ${given.join(' and ')}` : ''}`);
    }
    if (props.apiKey !== undefined && props.cfnApi === undefined) {
      throw new Error(`${this.node.path}: apiKey is for cfnApi; with ${given[0]}, the key is read from the API`);
    }
    if (props.api !== undefined) {
      // GraphqlApi lists its default mode first, then the additional ones.
      const api = props.api;
      return { path: api.node.path, modes: api.modes, url: api.graphqlUrl, region: Stack.of(api).region, apiKey: api.apiKey };
    }
    const { cfnApi, apiKey } = props.amplifyApi !== undefined
      ? amplifyApiParts(props.amplifyApi, this.node.path)
      : { cfnApi: props.cfnApi!, apiKey: props.apiKey };
    return {
      path: cfnApi.node.path,
      modes: [cfnApi.authenticationType, ...additionalModes(cfnApi.additionalAuthenticationProviders)].map((mode) => this.literalMode(mode, cfnApi)),
      url: cfnApi.attrGraphQlUrl,
      region: Stack.of(cfnApi).region,
      apiKey,
    };
  }

  /**
   * From JavaScript, the props can hold any object. An AmplifyGraphqlApi given as `api` is read
   * as `amplifyApi` (what its author meant); any other API in the wrong prop is refused by name.
   */
  private apiPropsByKind(props: DataOutputsProducerProps): DataOutputsProducerProps {
    for (const slot of ['api', 'amplifyApi', 'cfnApi'] as const) {
      const value = props[slot];
      const kind = value === undefined ? slot : graphqlApiKind(value);
      // An unknown object as amplifyApi: amplifyApiParts says what it lacks.
      if (kind === slot || (kind === undefined && slot === 'amplifyApi')) {
        continue;
      }
      if (slot === 'api' && kind === 'amplifyApi' && props.amplifyApi === undefined) {
        return this.apiPropsByKind({ ...props, api: undefined, amplifyApi: value });
      }
      const what = `${slot} ${(value as IConstruct).node?.path ?? String(value)}`;
      throw new Error(kind === undefined
        ? `${this.node.path}: ${what} is not a GraphQL API; ${API_PROP_KINDS}`
        : `${this.node.path}: ${what} is ${KIND_NAMES[kind]}: give it as ${kind}`);
    }
    return props;
  }

  private literalMode(mode: string, cfnApi: appsync.CfnGraphQLApi): string {
    if (Token.isUnresolved(mode)) {
      throw new Error(`${this.node.path}: the authentication types of ${cfnApi.node.path} must be known at synth (got a token)`);
    }
    return mode;
  }
}

const KIND_NAMES = { api: 'a GraphqlApi', amplifyApi: 'an AmplifyGraphqlApi', cfnApi: 'a CfnGraphQLApi' };
const API_PROP_KINDS = 'allowed: api (aws-cdk-lib GraphqlApi), amplifyApi (AmplifyGraphqlApi) or cfnApi (CfnGraphQLApi)';

/** Which prop an API object belongs in, by its shape (undefined: not a GraphQL API). */
function graphqlApiKind(value: unknown): 'api' | 'amplifyApi' | 'cfnApi' | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  if (CfnResource.isCfnResource(value as IConstruct)) {
    return (value as CfnResource).cfnResourceType === appsync.CfnGraphQLApi.CFN_RESOURCE_TYPE_NAME ? 'cfnApi' : undefined;
  }
  if (Array.isArray((value as Partial<appsync.GraphqlApi>).modes) && 'graphqlUrl' in value) {
    return 'api';
  }
  return isAmplifyGraphqlApi(value as IConstruct) ? 'amplifyApi' : undefined;
}

/** The API as the data section sees it. */
interface ApiDescription {
  readonly path: string;
  /** Authorization types, the default first. */
  readonly modes: string[];
  readonly url: string;
  readonly region: string;
  readonly apiKey?: string;
}

/** The authentication types of a CfnGraphQLApi's additional providers. */
function additionalModes(providers: appsync.CfnGraphQLApi['additionalAuthenticationProviders']): string[] {
  if (providers === undefined) {
    return [];
  }
  if (!Array.isArray(providers)) {
    return [Token.asString(providers)];
  }
  return providers.map((provider) => (Token.isUnresolved(provider)
    ? Token.asString(provider)
    : (provider as appsync.CfnGraphQLApi.AdditionalAuthenticationProviderProperty).authenticationType));
}

/** The document of a ModelIntrospection; a plain object (from JavaScript) is checked the same way. */
function introspectionDocument(introspection: ModelIntrospection | undefined): { [key: string]: any } | undefined {
  if (introspection === undefined || introspection instanceof ModelIntrospection) {
    return introspection?.document;
  }
  return ModelIntrospection.fromDocument(introspection as { [key: string]: any }).document;
}
