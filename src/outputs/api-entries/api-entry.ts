/**
 * One API in the `custom` section of vendor_outputs.json, in the one shape the client helper
 * (`toRestConfig`) reads and the sandbox points at the local server:
 *
 *   custom.<outputsKey> = { api_id, api_endpoint, api_name, api_stage, vendor_region, api_kind }
 *
 * (or the same keys at the root of `custom`: the spec's flat shape, which `RestItemsApi` writes
 * without `outputsKey`). Every kind of API (REST, HTTP and WebSocket APIs, function URLs)
 * goes through {@link writeApiEntry}, so every entry has the same checks, the same per-backend
 * reservations (API names, places in `custom`) and goes through `addOutput`'s merge rules.
 */
import { Token } from 'aws-cdk-lib';
import type { BackendOutputs } from '../sections/backend-outputs';

/** What kind of API an entry describes: the file's `api_kind`. */
export type ApiEntryKind = 'rest' | 'http' | 'websocket' | 'function_url';

/** An API's values, as the file spells them. */
export interface ApiEntryValues {
  /** The API's id (a function URL has none). */
  readonly api_id?: string;
  /** The invoke URL including the stage, ending with `/` (`wss://` for a WebSocket API). */
  readonly api_endpoint: string;
  readonly api_name: string;
  /** The stage's name (a function URL has none). */
  readonly api_stage?: string;
  readonly vendor_region: string;
  readonly api_kind: ApiEntryKind;
}

/** Who writes an entry, for messages and for the reservations. */
export interface ApiEntryWriter {
  /** `RestItemsApi`, `addRestApi`, `addHttpApi`, `addWebSocketApi`, `addFunctionUrl`: names the writer in messages. */
  readonly label: string;
  /** What the writer is called in messages, e.g. `RestItemsApi Backend/Items`. */
  readonly description: string;
}

/** Where an entry goes: under `custom.<slot>`, or flat at the root of `custom` when `slot` is ''. */
export interface ApiEntryPlacement {
  readonly slot: string;
  readonly writer: ApiEntryWriter;
}

/** The part of `VendorOutputs` an entry is written through (kept as an interface: no import loop). */
export interface ApiEntryOutputs {
  addOutput(outputs: BackendOutputs): void;
  reserve(kind: string, name: string): void;
  reservedBy(kind: string, name: string): string | undefined;
}

/** The keys of an entry; an `outputsKey` may not be one of them. */
export const API_ENTRY_KEYS: readonly string[] = ['api_id', 'api_endpoint', 'api_name', 'api_stage', 'vendor_region', 'api_kind'];

/** Per-backend names (see `VendorOutputs.reserve`): API names and places in `custom`. */
const NAME_KIND = 'VendorOutputs.apiName';
const SLOT_KIND = 'VendorOutputs.apiOutputsKey';
/** The writers that may hold a name, so that a message says which one does. */
const WRITER_LABELS = ['RestItemsApi', 'addRestApi', 'addHttpApi', 'addWebSocketApi', 'addFunctionUrl'];

/** A valid `outputsKey`. */
const SLOT_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,127}$/;

/**
 * Checks the entry's name and place, then writes it through `addOutput` and reserves both for the
 * backend. A refused entry changes nothing: the checks and `addOutput` run before any reservation.
 */
export function writeApiEntry(outputs: ApiEntryOutputs, values: ApiEntryValues, placement: ApiEntryPlacement): void {
  checkApiEntryPlace(outputs, values.api_name, placement);
  outputs.addOutput({ custom: placement.slot === '' ? { ...values } : { [placement.slot]: values } });
  for (const [kind, name] of [[NAME_KIND, values.api_name], [SLOT_KIND, placement.slot]]) {
    outputs.reserve(kind, name);
    outputs.reserve(`${kind}/${placement.writer.label}`, name);
  }
}

/**
 * Throws when the entry's name or place cannot be used: a token or blank name, a bad key, or a
 * name or place another API of the backend already has. For constructs that check before they
 * create anything.
 */
export function checkApiEntryPlace(outputs: ApiEntryOutputs, apiName: string, placement: ApiEntryPlacement): void {
  checkApiName(apiName, placement.writer);
  checkSlot(placement.slot, placement.writer);
  checkFree(outputs, SLOT_KIND, placement.slot, (holder) => `${placement.writer.description} would write ${describeSlot(placement.slot)}, which ${holder} already writes. `
    + `Give each ${placement.writer.label === 'RestItemsApi' ? 'RestItemsApi' : 'API'} of a backend a distinct outputsKey, e.g. { outputsKey: 'orders' }.`);
  checkFree(outputs, NAME_KIND, apiName, (holder) => `${placement.writer.description} has apiName '${apiName}', which ${holder} already uses; `
    + 'the client library keys its REST section by api_name, so give each API a distinct apiName.');
}

/** The `outputsKey` an API name gives by default, or undefined when the name cannot be a key. */
export function defaultSlot(apiName: string): string | undefined {
  return SLOT_PATTERN.test(apiName) && !API_ENTRY_KEYS.includes(apiName) ? apiName : undefined;
}

/** A name the client configuration can be keyed by: known at synth, not blank, at most 1024 characters. */
export function checkApiName(apiName: string, writer: ApiEntryWriter): void {
  if (Token.isUnresolved(apiName)) {
    throw new Error(`${writer.description}: apiName must be known at synth (got the token ${apiName}): it is the key of the client's REST section`);
  }
  if (apiName.trim() === '' || apiName.length > 1024) {
    throw new Error(`${writer.description}: apiName must have 1 to 1024 characters and not be blank (got ${JSON.stringify(apiName)})`);
  }
}

/** A place in `custom`: '' (flat) or a key known at synth that is not one of an entry's keys. */
export function checkSlot(slot: string, writer: ApiEntryWriter): void {
  if (slot === '') {
    return;
  }
  if (Token.isUnresolved(slot)) {
    throw new Error(`${writer.description}: outputsKey must be known at synth (got the token ${slot})`);
  }
  if (!SLOT_PATTERN.test(slot)) {
    throw new Error(`${writer.description}: outputsKey must start with a letter and have 1 to 128 letters, digits, hyphens or underscores (got ${JSON.stringify(slot)})`);
  }
  if (API_ENTRY_KEYS.includes(slot)) {
    throw new Error(`${writer.description}: outputsKey cannot be '${slot}', a key of an API entry (${API_ENTRY_KEYS.join(', ')})`);
  }
}

/** Throws `message(holder)` when another construct holds `name`. */
function checkFree(outputs: ApiEntryOutputs, kind: string, name: string, message: (holder: string) => string): void {
  const holder = outputs.reservedBy(kind, name);
  if (holder === undefined) {
    return;
  }
  const label = WRITER_LABELS.find((l) => outputs.reservedBy(`${kind}/${l}`, name) === holder);
  throw new Error(message(label === undefined ? holder : label === 'RestItemsApi' ? `RestItemsApi ${holder}` : `${label} from ${holder}`));
}

function describeSlot(slot: string): string {
  return slot === '' ? 'the flat keys at the root of custom (no outputsKey)' : `custom.${slot} (outputsKey '${slot}')`;
}
