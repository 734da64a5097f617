/**
 * Parameter mapping of an HTTP API integration (`RequestParameters`, `ResponseParameters`) and the
 * throttling of its stages' routes, as the local API reads them from the template.
 */

/** A route's `ThrottlingRateLimit` (requests per second) and `ThrottlingBurstLimit`. */
export interface RouteThrottleLimits {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** What a mapping changes: a header, a query string parameter, the path or the status code. */
export type MappingTarget =
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'querystring'; readonly name: string }
  | { readonly kind: 'path' }
  | { readonly kind: 'statuscode' };

/** One `action:target` key with its value expression (`$request.header.x`, `${context.requestId}-a`, a static text). */
export interface MappingEntry {
  readonly action: 'append' | 'overwrite' | 'remove';
  readonly target: MappingTarget;
  readonly value: string;
}

/** The mappings of one integration: the request's, and the response's by the integration's status code. */
export interface HttpParameterMapping {
  readonly request: readonly MappingEntry[];
  /** Status code (`"404"`) → the mappings applied to an integration answer with that status. */
  readonly response: Readonly<Record<string, readonly MappingEntry[]>>;
}

/** A stage's route throttling: `DefaultRouteSettings` for every route, `RouteSettings` by route key. */
export interface HttpStageThrottle {
  readonly defaultRoute?: RouteThrottleLimits;
  readonly routes: Readonly<Record<string, RouteThrottleLimits>>;
}
