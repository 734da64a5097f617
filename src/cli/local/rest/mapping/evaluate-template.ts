/**
 * Evaluates a mapping template (Velocity Template Language) with the gateway's variables, by
 * velocityjs, within API Gateway's template limits (bounded-compile.ts). Each template text is
 * parsed once; a syntax error is remembered as well. It runs in a template host process
 * (template-host.ts), and on the server's thread for templates that finish within a short budget
 * (render-template.ts decides).
 */
import type * as Velocity from 'velocityjs';
import { BoundedCompileClass, boundedCompileClass, RenderBounds } from './bounded-compile';
import { contextVariable, ContextInput, ContextOverrides } from './context-variable';
import { inputVariable, RequestParameters } from './input-variable';
import { JAVA_METHOD_HANDLERS } from './java-text';
import { outputTooLarge, TemplateError } from './template-error';
import { MAX_TEMPLATE_BYTES, MAX_TEMPLATE_OUTPUT_BYTES, TEMPLATE_DEADLINE_MS } from './template-limits';
import { utilVariable } from './util-variable';

let velocityModule: typeof Velocity | undefined;
let compileClass: BoundedCompileClass | undefined;

/** velocityjs, loaded on first use: an API whose templates are all static text does not load it. */
function velocity(): typeof Velocity {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  velocityModule ??= require('velocityjs') as typeof Velocity;
  return velocityModule;
}

/** Loads the engine now (a template host does at start, before its first template). */
export function loadTemplateEngine(): void {
  compileClass ??= boundedCompileClass(velocity());
}

/** What a template is evaluated with (plain data: it crosses to the template host). */
export interface TemplateInput {
  /** The payload `$input` reads. */
  readonly body: string;
  readonly parameters: RequestParameters;
  readonly context: ContextInput;
  readonly stageVariables: Readonly<Record<string, string>>;
}

/** The output, and the overrides the template set in `$context` (plain data). */
export interface TemplateOutput {
  readonly text: string;
  readonly context: ContextOverrides;
}

/** No reference and no directive: the text is the output (CORS preflight templates, static bodies). */
export function isStaticTemplate(template: string): boolean {
  return !/[$#]/.test(template);
}

/** The output of a static template. */
export function staticOutput(template: string): TemplateOutput {
  return { text: template, context: { requestOverride: { header: {}, querystring: {}, path: {} }, responseOverride: { header: {} } } };
}

/** A template longer than the gateway accepts (it refuses to deploy one); undefined when it fits. */
export function oversizedTemplate(template: string): TemplateError | undefined {
  const bytes = Buffer.byteLength(template, 'utf8');
  return bytes > MAX_TEMPLATE_BYTES
    ? new TemplateError('configuration', `the mapping template is ${bytes} bytes; API Gateway accepts templates of up to ${MAX_TEMPLATE_BYTES} bytes (300 KB)`)
    : undefined;
}

type Parsed = { readonly asts: ReturnType<typeof Velocity.parse> } | { readonly error: string };

/** Template text → parsed form. Template texts come from the API's definition, so this stays small. */
const parsedTemplates = new Map<string, Parsed>();

function parsed(template: string): ReturnType<typeof Velocity.parse> {
  let entry = parsedTemplates.get(template);
  if (entry === undefined) {
    try {
      entry = { asts: velocity().parse(template) };
    } catch (e) {
      entry = { error: (e as Error).message.split('\n').filter((l) => l.trim() !== '').join(' ') };
    }
    parsedTemplates.set(template, entry);
  }
  if ('error' in entry) {
    throw new TemplateError('configuration', `the mapping template does not parse: ${entry.error}`);
  }
  return entry.asts;
}

/**
 * Evaluates `template` here and now; throws a {@link TemplateError} when it cannot. `bounds`
 * replaces the deadline (the server's thread gives a template a short budget, see render-template.ts).
 */
export function evaluateTemplate(template: string, input: TemplateInput, bounds?: Omit<RenderBounds, 'deadline'> & { readonly ms: number }): TemplateOutput {
  const oversized = oversizedTemplate(template);
  if (oversized !== undefined) {
    throw oversized;
  }
  if (isStaticTemplate(template)) {
    return staticOutput(template);
  }
  const asts = parsed(template);
  const context = contextVariable(input.context);
  const variables = {
    input: inputVariable(input.body, input.parameters),
    util: utilVariable(),
    context,
    stageVariables: { ...input.stageVariables },
  };
  let text: string;
  try {
    compileClass ??= boundedCompileClass(velocity());
    const { ms = TEMPLATE_DEADLINE_MS, ...checks } = bounds ?? {};
    const compile = new compileClass(asts, { customMethodHandlers: JAVA_METHOD_HANDLERS }, { deadline: Date.now() + ms, ...checks });
    text = compile.render(variables);
  } catch (e) {
    if (e instanceof TemplateError || e === bounds?.overrun?.()) {
      throw e;
    }
    throw new TemplateError('configuration', `the mapping template failed: ${(e as Error).message}`);
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_TEMPLATE_OUTPUT_BYTES) {
    throw outputTooLarge();
  }
  return { text, context: plainOverrides(context) };
}

/**
 * The overrides the template set, as plain data: a value that is not a string, number, boolean or
 * null becomes its text (what the gateway's parameters take from it), so the output can cross to
 * the server whatever the template stored there.
 */
function plainOverrides(context: ContextOverrides): ContextOverrides {
  const plain = (record: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(record)) {
      out[name] = value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value) ? value : String(value);
    }
    return out;
  };
  const { requestOverride: request, responseOverride: response } = context;
  return {
    requestOverride: { header: plain(request.header), querystring: plain(request.querystring), path: plain(request.path) },
    responseOverride: {
      ...(response.status === undefined ? {} : { status: plain({ status: response.status }).status }),
      header: plain(response.header),
    },
  };
}
