/**
 * `$context.requestOverride.header|querystring|path.X` set by a request template: each replaces
 * the integration request parameter of that name.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-override-request-response-parameters.html
 */
import type { ContextOverrides } from '../../mapping/context-variable';
import type { MappedParameters } from '../request-parameters';

export function overriddenParameters(mapped: MappedParameters, overrides: ContextOverrides['requestOverride'] | undefined): MappedParameters {
  if (overrides === undefined) {
    return mapped;
  }
  const path = new Map(mapped.path);
  const querystring = new Map(mapped.querystring);
  const header = new Map(mapped.header);
  for (const [name, value] of Object.entries(overrides.path)) {
    path.set(name, String(value));
  }
  for (const [name, value] of Object.entries(overrides.querystring)) {
    querystring.set(name, [String(value)]);
  }
  for (const [name, value] of Object.entries(overrides.header)) {
    for (const existing of [...header.keys()].filter((n) => n.toLowerCase() === name.toLowerCase())) {
      header.delete(existing);
    }
    header.set(name, [String(value)]);
  }
  return { path, querystring, header };
}
