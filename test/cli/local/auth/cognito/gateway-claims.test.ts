/**
 * Token claims as the gateway passes them to a function: strings, Java dates for exp and iat.
 */
import { gatewayClaims, javaDate } from '../../../../../src/cli/local/auth/cognito/gateway-claims';

test('claims become strings as the gateway passes them: dates for exp and iat, digits, comma-joined lists, JSON objects', () => {
  const claims = gatewayClaims(JSON.parse('{"exp":1680633579,"iat":1680629979,"auth_time":1680629979,"cognito:groups":["team_manager","ops"],"email_verified":true,"address":{"country":"PT"},"nothing":null,"__proto__":"x"}'));
  // Entries, not an object literal: `__proto__` in a literal would set the prototype.
  expect(Object.entries(claims)).toEqual([
    ['exp', 'Tue Apr 04 18:39:39 UTC 2023'],
    ['iat', 'Tue Apr 04 17:39:39 UTC 2023'],
    ['auth_time', '1680629979'],
    ['cognito:groups', 'team_manager,ops'],
    ['email_verified', 'true'],
    ['address', '{"country":"PT"}'],
    ['nothing', 'null'],
    ['__proto__', 'x'],
  ]);
  expect(Object.getPrototypeOf(claims)).toBeNull();
  expect(javaDate(Date.UTC(2026, 0, 5, 3, 4, 5))).toBe('Mon Jan 05 03:04:05 UTC 2026');
});
