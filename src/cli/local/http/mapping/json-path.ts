/**
 * The JSON path of a `$request.body.<path>` or `$response.body.<path>` mapping value: names joined
 * by `.`, `[n]` indices and `['name']`. "Transform API requests and responses for HTTP APIs" rules
 * out recursive descent (`..name`) and filters (`?(expression)`); they select nothing here. The
 * body is cut at 100 KB before the path is applied, as that page says, so a longer JSON body does
 * not parse and selects nothing.
 */

const JSON_PATH_BODY_LIMIT = 100 * 1024;

/** The selected value as text (objects and arrays as JSON); undefined when the path selects nothing. */
export function selectFromBody(body: string | Buffer, path: string): string | undefined {
  const text = (typeof body === 'string' ? Buffer.from(body) : body).subarray(0, JSON_PATH_BODY_LIMIT).toString('utf8');
  if (path === '') {
    return text;
  }
  const steps = pathSteps(path);
  if (steps === undefined) {
    return undefined;
  }
  let node: unknown;
  try {
    node = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const step of steps) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, step)) {
      return undefined;
    }
    node = (node as Record<string, unknown>)[step];
  }
  return node === undefined ? undefined : typeof node === 'string' ? node : JSON.stringify(node);
}

/** `a.b[0]['c d']` → `['a', 'b', '0', 'c d']`; undefined for what the service does not take. */
function pathSteps(path: string): string[] | undefined {
  const steps: string[] = [];
  const step = /^(?:\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\])/;
  let rest = path.startsWith('.') || path.startsWith('[') ? path : `.${path}`;
  while (rest !== '') {
    const found = step.exec(rest);
    if (found === null) {
      return undefined;
    }
    steps.push(found[1] ?? found[2] ?? found[3]);
    rest = rest.slice(found[0].length);
  }
  return steps;
}
