/**
 * A stage's route throttling (`AWS::ApiGatewayV2::Stage`): `DefaultRouteSettings` for every route
 * and `RouteSettings` by route key, each with `ThrottlingBurstLimit` and `ThrottlingRateLimit`.
 * A setting with only one of the two leaves the other unlimited; one with neither throttles nothing.
 */
import { ownSet } from '../../common/own-record';
import type { HttpStageThrottle, RouteThrottleLimits } from '../../model/http-mapping';

/** The stage's throttling; undefined when it throttles no route. */
export function readStageThrottle(props: any): HttpStageThrottle | undefined {
  const defaultRoute = limitsOf(props?.DefaultRouteSettings);
  const routes: Record<string, RouteThrottleLimits> = {};
  for (const [routeKey, settings] of Object.entries(props?.RouteSettings ?? {})) {
    const limits = limitsOf(settings);
    if (limits !== undefined) {
      ownSet(routes, routeKey, limits);
    }
  }
  if (defaultRoute === undefined && Object.keys(routes).length === 0) {
    return undefined;
  }
  return { ...(defaultRoute === undefined ? {} : { defaultRoute }), routes };
}

function limitsOf(settings: any): RouteThrottleLimits | undefined {
  const burst = numberOf(settings?.ThrottlingBurstLimit);
  const rate = numberOf(settings?.ThrottlingRateLimit);
  if (burst === undefined && rate === undefined) {
    return undefined;
  }
  return { burstLimit: burst ?? Number.POSITIVE_INFINITY, rateLimit: rate ?? Number.POSITIVE_INFINITY };
}

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
