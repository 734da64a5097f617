/**
 * Which values of the client configuration diff never prints. The rule lives here only.
 *
 * The schema holds one credential, `data.api_key`; its free-form parts (`custom`,
 * `data.model_introspection`) may hold others. So the rule goes by key name: a value is secret when
 * the name of its key, or of any key above it, names a credential. A name is split into lowercase
 * words (`apiKey`, `api-key` and `API_KEY` all read `api_key`) and is secret when it ends in one of
 * CREDENTIAL_WORDS, optionally plural: `api_key`, `client_secret`, `refresh_token`, `db_password`,
 * `secret_access_key`, `private_key`, `credentials`. Ids and names (`access_key_id`,
 * `password_policy`, `user_pool_id`) are not secret.
 */
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { pointerTokens } from '../../outputs/cdk-free/json-pointer';

/** The last words of a credential's key name, `_` between words. */
export const CREDENTIAL_WORDS = ['api_key', 'apikey', 'secret', 'secret_key', 'access_key', 'private_key', 'password', 'passwd', 'token', 'credential'];

const CREDENTIAL_NAME = new RegExp(`(^|_)(${CREDENTIAL_WORDS.join('|')})s?$`);

/** What a secret value is shown as, inside a value that is shown. */
export const SECRET_PLACEHOLDER = '(secret)';

/** Whether a key with this name holds a credential. */
export function isSecretKey(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
  return CREDENTIAL_NAME.test(words);
}

/** Whether the value at `pointer` is secret (its key, or a key above it, names a credential). */
export function isSecretPointer(pointer: string): boolean {
  return pointerTokens(pointer).some(isSecretKey);
}

/** A copy of `value` (found at `pointer`) with every secret inside it replaced by SECRET_PLACEHOLDER. */
export function maskSecrets(value: unknown, pointer: string): unknown {
  if (isSecretPointer(pointer)) {
    return SECRET_PLACEHOLDER;
  }
  return maskInside(value);
}

function maskInside(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(maskInside);
  }
  if (!isPlainObject(value)) {
    return value;
  }
  // fromEntries defines own properties, so a key named __proto__ stays a key.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isSecretKey(key) ? SECRET_PLACEHOLDER : maskInside(item)]));
}
