/**
 * The invoker with a function no runtime family runs: 'unsupported' at invocation, as before
 * families.
 */
import { fn } from './function-spec';
import { Invoker } from '../../../../src/cli/local/lambda/invoker';

describe('a function no family runs', () => {
  test('its invocation answers unsupported with the reason, and nothing starts', async () => {
    // Code the template reader would have marked unsupported; the invoker checks the runtime again.
    const python = fn('python3.12');
    const invoker = new Invoker(new Map([[python.key, python]]), { log: () => undefined });
    try {
      invoker.warmAll();
      expect(await invoker.invoke(python.key, {}, { awsRequestId: 'r1' })).toEqual({
        kind: 'unsupported',
        reason: 'runtime python3.12 is not run locally (only nodejs runtimes are)',
      });
      expect(invoker.environmentCount(python.key)).toBe(0);
    } finally {
      await invoker.close();
    }
  });
});
