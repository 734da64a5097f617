/**
 * An HTTP API's `CorsConfiguration` (aws-cdk-lib's `corsPreflight`): the origins, methods and
 * headers allowed, the headers exposed, `MaxAge` and `AllowCredentials`.
 */
import { stringList } from '../../common/own-record';
import type { HttpCorsSpec } from '../../model/http-api';

export function readCors(configuration: any): HttpCorsSpec | undefined {
  if (configuration === undefined || configuration === null || typeof configuration !== 'object') {
    return undefined;
  }
  const maxAge = Number(configuration.MaxAge);
  return {
    allowOrigins: stringList(configuration.AllowOrigins),
    allowMethods: stringList(configuration.AllowMethods).map((m) => m.toUpperCase()),
    allowHeaders: stringList(configuration.AllowHeaders),
    exposeHeaders: stringList(configuration.ExposeHeaders),
    ...(configuration.MaxAge !== undefined && Number.isInteger(maxAge) ? { maxAgeSeconds: maxAge } : {}),
    allowCredentials: configuration.AllowCredentials === true || configuration.AllowCredentials === 'true',
  };
}
