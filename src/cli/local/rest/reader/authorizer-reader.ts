/**
 * Reads a REST API's `AWS::ApiGateway::Authorizer`s: the kind registered for each `Type`
 * (../authorizers/kinds.ts: Lambda authorizers `TOKEN` and `REQUEST` with their function, Cognito
 * user pool authorizers `COGNITO_USER_POOLS` with their pools) reads the rest.
 */
import { referencedId } from '../../template/template-references';
import type { AuthorizerEntry, AuthorizerScope } from '../authorizers/authorizer-kind';
import { authorizerKindReading } from '../authorizers/kinds';

export type { AuthorizerEntry, AuthorizerScope } from '../authorizers/authorizer-kind';

/** The API's authorizers by logical id. */
export function readAuthorizers(scope: AuthorizerScope): Map<string, AuthorizerEntry> {
  const out = new Map<string, AuthorizerEntry>();
  for (const [id, resource] of Object.entries<any>(scope.resources)) {
    const p = resource?.Properties ?? {};
    if (resource?.Type !== 'AWS::ApiGateway::Authorizer' || referencedId(p.RestApiId) !== scope.apiId) {
      continue;
    }
    out.set(id, readAuthorizer(scope, id, p));
  }
  return out;
}

/** One authorizer from `AWS::ApiGateway::Authorizer` Properties (or an OpenAPI document's, in that shape). */
export function readAuthorizer(scope: AuthorizerScope, id: string, p: Record<string, any>): AuthorizerEntry {
  const name = typeof p.Name === 'string' ? p.Name : id;
  const type = String(p.Type ?? '').toUpperCase();
  return authorizerKindReading(type)?.read?.(scope, { id, name, type, properties: p }) ?? { name };
}
