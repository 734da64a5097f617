/**
 * The project's own app id for `generate` and `diff`: cdk.json's `context["vendor-outputs:app-id"]`
 * in the current directory, the same value a CDK app sees as context at synth (where
 * `BackendIdentity.tagFromEnvironment` reads it).
 */
import * as fs from 'fs';
import * as path from 'path';
import { APP_ID_CONTEXT_KEY, FoundValue } from '../../outputs/cdk-free/hosted-build';
import { CDK_JSON, objectField, readJsonObject } from '../assembly/cdk-json';
import { CliError } from '../command';

/** How messages name this place. */
export const PROJECT_APP_ID_PLACE = `${CDK_JSON}'s context "${APP_ID_CONTEXT_KEY}"`;

/** The app id configured in `dir`/cdk.json, or undefined when there is no file or no such key. */
export function projectAppId(dir: string): FoundValue | undefined {
  const file = path.join(dir, CDK_JSON);
  if (!fs.existsSync(file)) {
    return undefined;
  }
  const value = objectField(readJsonObject(file), 'context', file)[APP_ID_CONTEXT_KEY];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CliError(`${file}: context "${APP_ID_CONTEXT_KEY}" must be a non-empty string (got ${JSON.stringify(value)})`);
  }
  return { value, source: `${CDK_JSON} context ${APP_ID_CONTEXT_KEY}` };
}
