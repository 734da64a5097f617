/**
 * The invoker with a function no runtime family runs: 'unsupported' at invocation, as before
 * families.
 */
import { fn } from './function-spec';
import { Invoker } from '../../../../src/cli/local/lambda/invoker';

describe('a function no family runs', () => {
  test('its invocation answers unsupported with the reason, and nothing starts', async () => {
    // Code the template reader would have marked unsupported; the invoker checks the runtime again.
    const ruby = fn('ruby3.3');
    const invoker = new Invoker(new Map([[ruby.key, ruby]]), { log: () => undefined });
    try {
      invoker.warmAll();
      expect(await invoker.invoke(ruby.key, {}, { awsRequestId: 'r1' })).toEqual({
        kind: 'unsupported',
        reason: 'runtime ruby3.3 is not run locally (only nodejs, python runtimes are)',
      });
      expect(invoker.environmentCount(ruby.key)).toBe(0);
    } finally {
      await invoker.close();
    }
  });
});
