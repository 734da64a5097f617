/**
 * The REST APIs of one stack (`AWS::ApiGateway::RestApi`) with their resources, methods,
 * integrations, authorizers, request validation, stages, gateway responses and usage plans, from
 * the template's resources or from the OpenAPI document in the API's `Body` (openapi-reader.ts).
 * Nothing here knows any construct: any REST API in a template is read the same way.
 */
import { AuthorizerEntry, AuthorizerScope, readAuthorizer, readAuthorizers } from './authorizer-reader';
import { gatewayResponsePropertiesOf, readGatewayResponse } from './gateway-response-reader';
import { IntegrationReadContext, readIntegration } from './integration-reader';
import { OpenApiApi, readOpenApiBody } from './openapi-reader';
import { resourceAt, rootResource } from './resource-tree';
import { RestStages, readStages } from './stage-reader';
import { MethodReader, readTemplateResources } from './template-resources-reader';
import { readUsage } from './usage-plan-reader';
import { readRequestValidation } from './validator-reader';
import { stringList } from '../../common/own-record';
import type { RestApiSpec, MethodSpec, ResourceNode } from '../../model/rest-api';
import { readApiIdentity } from '../../template/api-identity-reader';
import type { StackTemplate } from '../../template/stack-template';
import { integrationFunctionId, referencedId } from '../../template/template-references';

/** Every REST API of the stack, in template order (one defined by a document in S3 is only warned of). */
export function readRestApis(stack: StackTemplate): RestApiSpec[] {
  const stages = readStages(stack);
  const integrations = integrationReadContext(stack);
  const apis: RestApiSpec[] = [];
  for (const [logicalId, restApi] of stack.ofType('AWS::ApiGateway::RestApi')) {
    const props = restApi.Properties ?? {};
    if (props.Body === undefined && props.BodyS3Location !== undefined) {
      stack.warnings.push(`${stack.artifact.stackName}/${logicalId}: REST API defined by an OpenAPI document in S3 (ApiDefinition.fromAsset or fromBucket) is not served locally; ApiDefinition.fromInline puts it in the template, where it is`);
      continue;
    }
    apis.push(readRestApi(stack, logicalId, props, stages, integrations));
  }
  return apis;
}

/** One REST API: the document's methods (if any), then the template's on top, then what hangs off the API. */
function readRestApi(stack: StackTemplate, logicalId: string, props: any, stages: RestStages, integrations: IntegrationReadContext): RestApiSpec {
  const { artifact } = stack;
  const root = rootResource();
  const document = props.Body !== undefined ? readOpenApiBody(props.Body, logicalId) : undefined;
  const authorizerScope: AuthorizerScope = {
    artifact,
    resources: stack.resources,
    apiId: logicalId,
    environment: stack.environment,
    warnings: stack.warnings,
    registerFunction: integrations.registerFunction,
  };
  const authorizers = readAuthorizers(authorizerScope);
  const readMethod = methodReader(stack, logicalId, document, authorizers, integrations);
  const gatewayResponseProps = gatewayResponsePropertiesOf(stack, logicalId);
  const binaryMediaTypes = stringList(props.BinaryMediaTypes);
  if (document !== undefined) {
    addDocument(stack, logicalId, document, { root, authorizers, authorizerScope, readMethod, gatewayResponseProps, binaryMediaTypes });
  }
  // Resources and methods of the template are added to what a document defines (CDK's addResource on a SpecRestApi).
  readTemplateResources(stack, logicalId, root, readMethod);
  const stageNames = stages.namesOf(logicalId);
  if (stageNames.length === 0) {
    stack.warnings.push(`${artifact.stackName}/${logicalId}: REST API has no stage; not served`);
  }
  return {
    ...readApiIdentity(stack, logicalId, props, { stages: stageNames, stageVariables: stages.variablesOf(logicalId) }),
    root,
    binaryMediaTypes,
    gatewayResponses: gatewayResponseProps.map((p) => readGatewayResponse(p, { values: stack.values, where: `${artifact.stackName}/${logicalId}`, warnings: stack.warnings })),
    usage: readUsage(artifact, stack.resources, logicalId, stack.environment, stack.warnings),
  };
}

/** How integrations reach the stack: its functions (registered to run locally) and intrinsic values. */
function integrationReadContext(stack: StackTemplate): IntegrationReadContext {
  return {
    stackName: stack.artifact.stackName,
    region: stack.artifact.region,
    environment: stack.environment,
    values: stack.values,
    warnings: stack.warnings,
    functionIdOf: (uri) => integrationFunctionId(uri, stack.resources),
    registerFunction: (fnId) => stack.registerFunction(fnId),
  };
}

/** Reads a method's Properties (from the template or the document) with the API's authorizers and validation. */
function methodReader(
  stack: StackTemplate, apiId: string, document: OpenApiApi | undefined,
  authorizers: ReadonlyMap<string, AuthorizerEntry>, integrations: IntegrationReadContext,
): MethodReader {
  // The document's validators and models are read as the template's would be.
  const validationResources = document === undefined ? stack.resources : { ...stack.resources, ...document.resources };
  const validationOf = readRequestValidation({
    stackName: stack.artifact.stackName,
    resources: validationResources,
    apiLogicalId: apiId,
    environment: stack.environment,
    warnings: stack.warnings,
  });
  return (methodId: string, p: any): MethodSpec => {
    const authorizerId = referencedId(p.AuthorizerId);
    const authorizer = authorizerId !== undefined ? authorizers.get(authorizerId) : undefined;
    return {
      logicalId: methodId,
      httpMethod: String(p.HttpMethod ?? 'ANY').toUpperCase(),
      authorizationType: String(p.AuthorizationType ?? 'NONE').toUpperCase(),
      authorizer: authorizer?.lambda,
      authorizerName: authorizer?.name,
      cognitoAuthorizer: authorizer?.cognito,
      authorizationScopes: stringList(p.AuthorizationScopes),
      apiKeyRequired: p.ApiKeyRequired === true || p.ApiKeyRequired === 'true',
      integration: readIntegration(integrations, p.Integration, methodId),
      requestValidation: validationOf(methodId, p),
    };
  };
}

/** What a document adds to: the tree, the authorizers, the gateway responses and binary media types. */
interface DocumentTargets {
  readonly root: ResourceNode;
  readonly authorizers: Map<string, AuthorizerEntry>;
  readonly authorizerScope: AuthorizerScope;
  readonly readMethod: MethodReader;
  readonly gatewayResponseProps: any[];
  readonly binaryMediaTypes: string[];
}

/** The OpenAPI document's notes, authorizers, methods, gateway responses and binary media types. */
function addDocument(stack: StackTemplate, apiId: string, document: OpenApiApi, targets: DocumentTargets): void {
  for (const note of document.notes) {
    stack.warnings.push(`${stack.artifact.stackName}/${apiId}: ${note}`);
  }
  for (const authorizer of document.authorizers) {
    targets.authorizers.set(authorizer.id, readAuthorizer(targets.authorizerScope, authorizer.id, authorizer.properties));
  }
  for (const method of document.methods) {
    const spec = targets.readMethod(`${apiId} ${method.label}`, method.properties);
    resourceAt(targets.root, method.path).methods.set(spec.httpMethod, spec);
  }
  // A GatewayResponse resource is put after the document is imported: it wins over the document's entry of its type (the first found is used).
  targets.gatewayResponseProps.push(...document.gatewayResponses);
  targets.binaryMediaTypes.push(...document.binaryMediaTypes.filter((t) => !targets.binaryMediaTypes.includes(t)));
}
