/**
 * The `sub` of a user of a local token.
 */
import { userSub } from '../../../../../src/cli/local/auth/cognito/mint-token';

test('a user\'s sub is a version-4-shaped UUID, the same for the same pool and name, different otherwise', () => {
  const sub = userSub('us-east-1_A', 'ana');
  expect(sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(userSub('us-east-1_A', 'ana')).toBe(sub);
  expect(userSub('us-east-1_B', 'ana')).not.toBe(sub);
  expect(userSub('us-east-1_A', 'bo')).not.toBe(sub);
});
