/**
 * The resources of a template that are APIs a frontend calls, each with the API kind that would
 * serve it locally: REST APIs, HTTP and WebSocket APIs (API Gateway v2), function URLs and AppSync
 * GraphQL APIs. An API whose kind is not registered is listed as not served, with the reason below.
 */
import { referencedId } from './template-references';

/** An API resource of a template. */
export interface ApiResource {
  /** The API kind's name (`REST`, `HTTP`, ...): served when a kind of that name is registered. */
  readonly kind: string;
  /** How the listing names the kind. */
  readonly label: string;
  readonly logicalId: string;
  /** Why it is not served while no kind serves it. */
  readonly notServedReason: string;
  /** For a function URL: the logical id of its function, when the template names it. */
  readonly functionId?: string;
}

interface ApiResourceType {
  readonly type: string;
  readonly kind: string;
  readonly label: string;
  readonly notServedReason: string;
  /** Whether a resource of the type is this kind (API Gateway v2 holds HTTP and WebSocket APIs). */
  readonly matches?: (properties: Record<string, unknown>) => boolean;
}

/** The v2 protocol: `ProtocolType`, or HTTP for an API imported from an OpenAPI `Body` (which sets none). */
function v2Protocol(properties: Record<string, unknown>): string {
  return typeof properties.ProtocolType === 'string' ? properties.ProtocolType.toUpperCase() : 'HTTP';
}

const API_RESOURCE_TYPES: readonly ApiResourceType[] = [
  { type: 'AWS::ApiGateway::RestApi', kind: 'REST', label: 'REST API', notServedReason: 'REST APIs are not served' },
  {
    type: 'AWS::ApiGatewayV2::Api',
    kind: 'HTTP',
    label: 'HTTP API',
    notServedReason: 'HTTP APIs (API Gateway v2) are not served locally yet',
    matches: (p) => v2Protocol(p) === 'HTTP',
  },
  {
    type: 'AWS::ApiGatewayV2::Api',
    kind: 'WEBSOCKET',
    label: 'WebSocket API',
    notServedReason: 'WebSocket APIs (API Gateway v2) are not served locally yet',
    matches: (p) => v2Protocol(p) === 'WEBSOCKET',
  },
  { type: 'AWS::Lambda::Url', kind: 'FUNCTION_URL', label: 'function URL', notServedReason: 'Lambda function URLs are not served locally yet' },
  { type: 'AWS::AppSync::GraphQLApi', kind: 'GRAPHQL', label: 'GraphQL API', notServedReason: 'AppSync GraphQL APIs are not served locally' },
];

/** The API resources of a template's `Resources`, in template order. */
export function apiResources(resources: Record<string, any>): ApiResource[] {
  const found: ApiResource[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    const properties: Record<string, unknown> = resource?.Properties ?? {};
    const type = API_RESOURCE_TYPES.find((t) => t.type === resource?.Type && (t.matches?.(properties) ?? true));
    if (type !== undefined) {
      found.push({
        kind: type.kind,
        label: type.label,
        logicalId,
        notServedReason: type.notServedReason,
        functionId: type.kind === 'FUNCTION_URL' ? referencedId(properties.TargetFunctionArn) : undefined,
      });
    }
  }
  return found;
}
