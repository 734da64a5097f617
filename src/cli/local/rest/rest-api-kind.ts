/**
 * REST APIs (API Gateway v1, payload 1.0) as an API kind: read by reader/rest-api-reader.ts,
 * served by the request pipeline of gateway.ts, listed by route-listing.ts.
 */
import { LocalGateway, MAX_BODY_BYTES, tooLarge } from './gateway';
import { closeTemplateHosts } from './mapping/template-hosts';
import { KeyCounters } from './pipeline/key-counters';
import { readRestApis } from './reader/rest-api-reader';
import { routeRows } from './route-listing';
import { listMethods } from './router';
import type { ApiKind } from '../api-kind/api-kind';
import { restApi } from '../model/rest-api';

export const REST_API_KIND: ApiKind = {
  kind: 'REST',
  readApis: readRestApis,
  serving() {
    // Usage plan counters: shared by the APIs of one server (a plan spans APIs) and kept across reloads.
    const keyCounters = new KeyCounters();
    return { handler: (api, context) => new LocalGateway({ api: restApi(api), ...context, keyCounters }), close: closeTemplateHosts };
  },
  routeRows: (api, ...rest) => routeRows(restApi(api), ...rest),
  routes(api, stageUrl) {
    const base = stageUrl.replace(/\/$/, '');
    return listMethods(restApi(api).root).map(({ resource, method }) => `${method.httpMethod} ${base}${resource.path === '/' ? '/' : resource.path}`);
  },
  maxBodyBytes: MAX_BODY_BYTES,
  tooLarge,
  userPools(api) {
    const methods = listMethods(restApi(api).root).map(({ method }) => method);
    return {
      uses: methods.some((method) => method.authorizationType === 'COGNITO_USER_POOLS'),
      pools: methods.flatMap(({ cognitoAuthorizer }) => (cognitoAuthorizer?.pools ?? []).map(({ poolId, region, clientIds }) => ({
        poolId, region, clientIds, authorizer: cognitoAuthorizer!.name,
      }))),
    };
  },
};
