/**
 * A mapping value, as "Transform API requests and responses for HTTP APIs" writes one: a whole
 * `$source.name` (`$request.header.x`), `${source.name}` pieces mixed with text
 * (`${request.path.id}-${context.requestId}`), or a static value. A source with nothing to give
 * (a header the request lacks) gives empty text.
 */

/** Reads one source (`request.header.x`, `context.requestId`); undefined when it has nothing. */
export type MappingSource = (name: string) => string | undefined;

const WHOLE = /^\$([A-Za-z][A-Za-z0-9_.\-[\]']*)$/;
const PIECE = /\$\{([^{}]+)\}/g;

export function evaluateMappingValue(value: string, source: MappingSource): string {
  const whole = WHOLE.exec(value);
  if (whole !== null) {
    return source(whole[1]) ?? '';
  }
  return value.replace(PIECE, (_all, name: string) => source(name.trim()) ?? '');
}
