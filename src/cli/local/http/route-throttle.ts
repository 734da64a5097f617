/**
 * Route throttling of an HTTP API's stages: a token bucket per stage and route, with the route's
 * `RouteSettings` limits, else the stage's `DefaultRouteSettings`, made on the route's first
 * request (REST's token bucket: "Throttling requests to your HTTP API" describes the same
 * algorithm and the 429 Too Many Requests answer). Account-level limits are not applied locally.
 */
import { ownGet } from '../common/own-record';
import type { HttpRouteSpec } from '../model/http-api';
import type { HttpStageThrottle, RouteThrottleLimits } from '../model/http-mapping';
import { TokenBucket } from '../rest/pipeline/token-bucket';

export class RouteThrottle {
  private readonly buckets = new Map<string, Map<HttpRouteSpec, TokenBucket | null>>();

  constructor(private readonly throttles: Readonly<Record<string, HttpStageThrottle>>) {}

  /** Takes a token of the route's bucket at `now`; the limits it was over when the request is throttled. */
  take(stage: string, route: HttpRouteSpec, now: number): RouteThrottleLimits | undefined {
    const bucket = this.bucket(stage, route, now);
    return bucket === null || bucket.take(now) ? undefined : bucket.limits;
  }

  private bucket(stage: string, route: HttpRouteSpec, now: number): TokenBucket | null {
    let byRoute = this.buckets.get(stage);
    if (byRoute === undefined) {
      byRoute = new Map();
      this.buckets.set(stage, byRoute);
    }
    let bucket = byRoute.get(route);
    if (bucket === undefined) {
      const limits = routeLimits(this.throttles, stage, route.routeKey);
      bucket = limits === undefined ? null : new TokenBucket(limits, now);
      byRoute.set(route, bucket);
    }
    return bucket;
  }
}

/** The route's limits on the stage: its own `RouteSettings`, else the stage's default; undefined when unthrottled. */
export function routeLimits(
  throttles: Readonly<Record<string, HttpStageThrottle>>, stage: string, routeKey: string,
): RouteThrottleLimits | undefined {
  const throttle = ownGet(throttles, stage);
  return throttle === undefined ? undefined : ownGet(throttle.routes, routeKey) ?? throttle.defaultRoute;
}
