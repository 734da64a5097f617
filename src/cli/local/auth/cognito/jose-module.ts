/**
 * jose, loaded on first use: an app without Cognito authorizers does not load it at start.
 */
import type * as Jose from 'jose';

let loaded: typeof Jose | undefined;

export function jose(): typeof Jose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('jose') as typeof Jose;
  return loaded;
}
