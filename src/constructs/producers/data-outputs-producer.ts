import { Stack } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import { Construct } from 'constructs';
import { OutputSection } from '../../outputs/sections/backend-outputs';
import { DataAuthorizationType, DataOutputs } from '../../outputs/sections/data';
import { VendorOutputs } from '../../outputs/vendor-outputs';

/** Properties of a {@link DataOutputsProducer}. */
export interface DataOutputsProducerProps {
  /** The AppSync GraphQL API the frontend's data client talks to. */
  readonly api: appsync.GraphqlApi;

  /**
   * Model introspection schema for the data client, written unchanged as `data.model_introspection`.
   * @default - not written
   */
  readonly modelIntrospection?: { [key: string]: any };
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
    // GraphqlApi lists its default mode first, then the additional ones.
    const modes = props.api.modes.map((mode) => {
      const mapped = AUTHORIZATION_TYPES[mode];
      if (mapped === undefined) {
        throw new Error(`${this.node.path}: the GraphQL API ${props.api.node.path} uses authorization type ${mode}, which vendor_outputs.json cannot describe; allowed: ${Object.keys(AUTHORIZATION_TYPES).join(', ')}`);
      }
      return mapped;
    });
    const authorizationTypes = [...new Set(modes)];
    this.outputs = {
      vendorRegion: Stack.of(props.api).region,
      url: props.api.graphqlUrl,
      defaultAuthorizationType: modes[0] ?? DataAuthorizationType.API_KEY,
      authorizationTypes,
      apiKey: authorizationTypes.includes(DataAuthorizationType.API_KEY) ? props.api.apiKey : undefined,
      modelIntrospection: props.modelIntrospection,
    };
    VendorOutputs.of(this).claim(OutputSection.DATA);
    VendorOutputs.of(this).addOutput({ data: this.outputs });
  }
}
