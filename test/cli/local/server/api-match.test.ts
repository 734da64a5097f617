/**
 * What a reload compares: which API of a new synth is which served API.
 */
import { ApiSpec } from '../../../../src/cli/local/model/rest-api';
import { matchApis } from '../../../../src/cli/local/server/api-match';

function api(stackName: string, logicalId: string, constructPath?: string): ApiSpec {
  return { stackName, logicalId, constructPath, apiId: logicalId, name: logicalId, region: 'us-east-1', stages: ['dev'], stageVariables: {}, root: undefined as any, binaryMediaTypes: [], gatewayResponses: [] };
}

describe('matchApis', () => {
  const served = [api('Backend', 'ApiA1', 'Backend/Api'), api('Backend', 'OtherB2', 'Backend/Other'), api('Backend', 'GoneC3', 'Backend/Gone')];
  const same = (a: ApiSpec) => a;

  test('by stack name and logical id, else by construct path; the rest are added or removed', () => {
    const next = [api('Backend', 'ApiA1', 'Backend/Moved'), api('Backend', 'OtherD4', 'Backend/Other'), api('Backend', 'NewE5', 'Backend/New')];
    const match = matchApis(served, next, same);
    expect(match.kept.map((k) => [k.served.logicalId, k.next.logicalId])).toEqual([['ApiA1', 'ApiA1'], ['OtherB2', 'OtherD4']]);
    expect(match.added.map((a) => a.logicalId)).toEqual(['NewE5']);
    expect(match.removed.map((a) => a.logicalId)).toEqual(['GoneC3']);
  });

  test('the same logical id in another stack is another API', () => {
    const match = matchApis([api('One', 'Api')], [api('Two', 'Api')], same);
    expect(match.kept).toEqual([]);
    expect(match.added.map((a) => a.stackName)).toEqual(['Two']);
    expect(match.removed.map((a) => a.stackName)).toEqual(['One']);
  });

  test('an id match wins over a construct path match, and a served API is paired once', () => {
    const match = matchApis([api('S', 'X', 'S/Api')], [api('S', 'Y', 'S/Api'), api('S', 'X', 'S/Elsewhere')], same);
    expect(match.kept.map((k) => k.next.logicalId)).toEqual(['X']);
    expect(match.added.map((a) => a.logicalId)).toEqual(['Y']);
  });

  test('APIs without a construct path match by id only', () => {
    const match = matchApis([api('S', 'X')], [api('S', 'Y')], same);
    expect(match.kept).toEqual([]);
  });
});
