/**
 * The Node.js major of a runtime, which the start-up notices compare with the host.
 */
import { nodeMajorOf } from '../../../../../src/cli/local/lambda/node/startup-notices';

test('Node.js majors of runtimes', () => {
  expect(nodeMajorOf('nodejs22.x')).toBe(22);
  expect(nodeMajorOf('python3.12')).toBeUndefined();
});
