/**
 * The project's own app id for `generate`: cdk.json's `context["vendor-outputs:app-id"]` in the
 * current directory, the same value a CDK app sees as context at synth (where
 * `BackendIdentity.tagFromEnvironment` reads it).
 */
import * as fs from 'fs';
import * as path from 'path';
import { APP_ID_CONTEXT_KEY, FoundValue } from '../../outputs/cdk-free/hosted-build';
import { isJsonObject } from '../assembly/json-file';
import { CliError } from '../command';
import { CDK_JSON, readJsonObject } from '../sandbox/cdk-project';

/** How messages name this place. */
export const PROJECT_APP_ID_PLACE = `${CDK_JSON}'s context "${APP_ID_CONTEXT_KEY}"`;

/** The app id configured in `dir`/cdk.json, or undefined when there is no file or no such key. */
export function projectAppId(dir: string): FoundValue | undefined {
  const file = path.join(dir, CDK_JSON);
  if (!fs.existsSync(file)) {
    return undefined;
  }
  const context = readJsonObject(file).context;
  if (context === undefined) {
    return undefined;
  }
  if (!isJsonObject(context)) {
    throw new CliError(`${file}: "context" must be an object (got ${JSON.stringify(context)})`);
  }
  const value = context[APP_ID_CONTEXT_KEY];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CliError(`${file}: context "${APP_ID_CONTEXT_KEY}" must be a non-empty string (got ${JSON.stringify(value)})`);
  }
  return { value, source: `${CDK_JSON} context ${APP_ID_CONTEXT_KEY}` };
}
