/**
 * The integration URI of an HTTP or AWS service integration, filled in for one request:
 * `${stageVariables.x}`, `{name}` placeholders from `integration.request.path.name`, and the mapped
 * query parameters appended (only those: a non-proxy integration forwards nothing unmapped).
 */
import type { MappedParameters } from '../request-parameters';

export function endpointUri(
  uri: string, stageVariables: Readonly<Record<string, string>>, parameters: MappedParameters,
): string | { problem: string } {
  let problem: string | undefined;
  const filled = uri
    .replace(/\$\{stageVariables\.([A-Za-z0-9_]+)\}/g, (_, name: string) => {
      const value = Object.prototype.hasOwnProperty.call(stageVariables, name) ? stageVariables[name] : undefined;
      problem ??= value === undefined ? `stage variable ${name} is not set` : undefined;
      return value ?? '';
    })
    .replace(/\{([^{}]+)\}/g, (_, name: string) => {
      const value = parameters.path.get(name);
      problem ??= value === undefined ? `no value for {${name}} of the integration URI (map integration.request.path.${name})` : undefined;
      // Each segment encoded (the values are decoded), the slashes of a greedy value kept.
      return (value ?? '').split('/').map(encodeURIComponent).join('/');
    });
  if (problem !== undefined) {
    return { problem };
  }
  const query = [...parameters.querystring]
    .flatMap(([name, values]) => values.map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`))
    .join('&');
  return query === '' ? filled : `${filled}${filled.includes('?') ? '&' : '?'}${query}`;
}

/** The mapped headers, after the integration request's content type. */
export function endpointHeaders(contentType: string | undefined, parameters: MappedParameters): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  if (contentType !== undefined && ![...parameters.header.keys()].some((name) => name.toLowerCase() === 'content-type')) {
    headers.push(['Content-Type', contentType]);
  }
  for (const [name, values] of parameters.header) {
    headers.push(...values.map((value): [string, string] => [name, value]));
  }
  return headers;
}
