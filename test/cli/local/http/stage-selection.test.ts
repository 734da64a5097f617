import { selectStage } from '../../../../src/cli/local/http/stage-selection';
import type { HttpApiSpec } from '../../../../src/cli/local/model/http-api';

const api = (stages: string[]) => ({ stages } as unknown as HttpApiSpec);

test.each([
  [['$default', 'dev'], '/dev/items', { stage: 'dev', pathBelowStage: '/items' }],
  [['$default', 'dev'], '/dev', { stage: 'dev', pathBelowStage: '/' }],
  [['$default', 'dev'], '/devices', { stage: '$default', pathBelowStage: '/devices' }],
  [['$default', 'dev'], '/', { stage: '$default', pathBelowStage: '/' }],
  [['$default'], '/$default/items', { stage: '$default', pathBelowStage: '/$default/items' }],
  [['dev'], '/items', undefined],
  [['dev'], '/', undefined],
])('stages %j, path %s: %j', (stages, path, selected) => {
  expect(selectStage(api(stages), path)).toEqual(selected);
});
