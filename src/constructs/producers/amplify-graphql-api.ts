/**
 * Reads what the data section needs from an `AmplifyGraphqlApi` (`@aws-amplify/graphql-api-construct`)
 * by its public shape (`resources.cfnResources.cfnGraphqlApi`, `apiKey`), so this library needs
 * nothing from that package: users who do not build Amplify-style APIs install nothing.
 */
import { CfnResource } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import { IConstruct } from 'constructs';

/** The parts of an AmplifyGraphqlApi the data section reads. */
export interface AmplifyApiParts {
  readonly cfnApi: appsync.CfnGraphQLApi;
  readonly apiKey?: string;
}

/** The shape of an AmplifyGraphqlApi this module reads. */
interface AmplifyApiShape {
  readonly resources?: { readonly cfnResources?: { readonly cfnGraphqlApi?: unknown } };
  readonly apiKey?: unknown;
}

/** Whether `construct` has an AmplifyGraphqlApi's API resource. */
export function isAmplifyGraphqlApi(construct: IConstruct): boolean {
  const cfnApi = (construct as AmplifyApiShape).resources?.cfnResources?.cfnGraphqlApi;
  return CfnResource.isCfnResource(cfnApi as IConstruct)
    && (cfnApi as CfnResource).cfnResourceType === appsync.CfnGraphQLApi.CFN_RESOURCE_TYPE_NAME;
}

/** The API resource and key of `construct`; throws, naming `where`, when it is not an AmplifyGraphqlApi. */
export function amplifyApiParts(construct: IConstruct, where: string): AmplifyApiParts {
  const shaped = construct as AmplifyApiShape;
  const cfnApi = shaped.resources?.cfnResources?.cfnGraphqlApi;
  if (!isAmplifyGraphqlApi(construct)) {
    throw new Error(`${where}: amplifyApi ${construct.node.path} is not an AmplifyGraphqlApi (it has no resources.cfnResources.cfnGraphqlApi of type ${appsync.CfnGraphQLApi.CFN_RESOURCE_TYPE_NAME}); `
      + 'pass an AmplifyGraphqlApi, or the API resource itself as cfnApi');
  }
  const apiKey = typeof shaped.apiKey === 'string' ? shaped.apiKey : undefined;
  return { cfnApi: cfnApi as appsync.CfnGraphQLApi, apiKey };
}
