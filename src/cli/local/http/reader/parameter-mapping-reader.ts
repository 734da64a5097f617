/**
 * `RequestParameters` and `ResponseParameters` of an `AWS::ApiGatewayV2::Integration`, as
 * "Transform API requests and responses for HTTP APIs" lists their keys: requests take
 * `append|overwrite|remove:header.<name>`, `append|overwrite|remove:querystring.<name>` and
 * `overwrite:path`; responses, keyed by a status code of 200-599, take the header keys and
 * `overwrite:statuscode`. `ResponseParameters` is read in both forms CloudFormation accepts: a
 * map of keys to values, or `{ ResponseParameters: [{ Destination, Source }] }`. A key outside
 * these is warned of and skipped.
 */
import { ownSet } from '../../common/own-record';
import type { HttpParameterMapping, MappingEntry, MappingTarget } from '../../model/http-mapping';
import type { StackTemplate } from '../../template/stack-template';

const KEY = /^(append|overwrite|remove):(?:(header|querystring)\.(.+)|(path|statuscode))$/i;

/** The integration's mappings; undefined when it has none. */
export function readParameterMapping(stack: StackTemplate, props: any, where: string): HttpParameterMapping | undefined {
  if (props?.RequestParameters === undefined && props?.ResponseParameters === undefined) {
    return undefined;
  }
  const request = readEntries(stack, pairsOf(props.RequestParameters), 'request', `${where} RequestParameters`);
  const response: Record<string, MappingEntry[]> = {};
  for (const [status, list] of Object.entries(props.ResponseParameters ?? {})) {
    if (!/^[2-5]\d\d$/.test(status)) {
      stack.warnings.push(`${where} ResponseParameters: ${JSON.stringify(status)} is not a status code of 200-599; skipped`);
      continue;
    }
    ownSet(response, status, readEntries(stack, responsePairs(list), 'response', `${where} ResponseParameters ${status}`));
  }
  return { request, response };
}

/** The `Destination`/`Source` list form, or the plain map. */
function responsePairs(list: any): Array<[string, unknown]> {
  const items = Array.isArray(list?.ResponseParameters) ? list.ResponseParameters : Array.isArray(list) ? list : undefined;
  return items === undefined ? pairsOf(list) : items.map((p: any): [string, unknown] => [String(p?.Destination), p?.Source]);
}

function pairsOf(map: unknown): Array<[string, unknown]> {
  return map !== null && typeof map === 'object' ? Object.entries(map as Record<string, unknown>) : [];
}

function readEntries(stack: StackTemplate, pairs: Array<[string, unknown]>, side: 'request' | 'response', where: string): MappingEntry[] {
  const entries: MappingEntry[] = [];
  for (const [key, raw] of pairs) {
    const parsed = parseKey(key, side);
    if (typeof parsed === 'string') {
      stack.warnings.push(`${where}: ${parsed}; skipped`);
      continue;
    }
    const value = stack.values.text(raw);
    if (value.value === undefined) {
      stack.warnings.push(`${where}: the value of ${key} is not known locally (${value.problem}); skipped`);
      continue;
    }
    entries.push({ ...parsed, value: value.value });
  }
  return entries;
}

/** The key's action and target, or why it is not one the service takes on this side. */
function parseKey(key: string, side: 'request' | 'response'): Omit<MappingEntry, 'value'> | string {
  const match = KEY.exec(key);
  if (match === null) {
    return `${JSON.stringify(key)} is not a mapping key (action:header.name, action:querystring.name, overwrite:path or overwrite:statuscode)`;
  }
  const action = match[1].toLowerCase() as MappingEntry['action'];
  const where = (match[2] ?? match[4]).toLowerCase();
  const target: MappingTarget = where === 'header' || where === 'querystring' ? { kind: where, name: match[3] } : { kind: where as 'path' | 'statuscode' };
  if ((target.kind === 'path' && side === 'response') || (target.kind === 'statuscode' && side === 'request') || (target.kind === 'querystring' && side === 'response')) {
    return `${key} is not a ${side} mapping`;
  }
  if ((target.kind === 'path' || target.kind === 'statuscode') && action !== 'overwrite') {
    return `${key}: ${target.kind} takes only overwrite`;
  }
  return { action, target };
}
