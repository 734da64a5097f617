/**
 * Evaluates a mapping template (Velocity Template Language) with the gateway's variables, by
 * velocityjs. Each template text is parsed once; a syntax error is remembered as well.
 */
import type * as Velocity from 'velocityjs';
import { contextVariable, ContextInput, ContextOverrides } from './context-variable';
import { inputVariable, RequestParameters } from './input-variable';
import { JAVA_METHOD_HANDLERS } from './java-text';
import { TemplateError } from './template-error';
import { utilVariable } from './util-variable';

let velocityModule: typeof Velocity | undefined;

/** velocityjs, loaded on first use: an API whose templates are all static text does not load it. */
function velocity(): typeof Velocity {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  velocityModule ??= require('velocityjs') as typeof Velocity;
  return velocityModule;
}

/** What a template is evaluated with. */
export interface TemplateInput {
  /** The payload `$input` reads. */
  readonly body: string;
  readonly parameters: RequestParameters;
  readonly context: ContextInput;
  readonly stageVariables: Readonly<Record<string, string>>;
}

/** The output, and the overrides the template set in `$context`. */
export interface TemplateOutput {
  readonly text: string;
  readonly context: ContextOverrides;
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

/** Evaluates `template`; throws a {@link TemplateError} when it cannot. */
export function renderTemplate(template: string, input: TemplateInput): TemplateOutput {
  if (!/[$#]/.test(template)) {
    // No reference and no directive: the text is the output (CORS preflight templates, static bodies).
    return { text: template, context: { requestOverride: { header: {}, querystring: {}, path: {} }, responseOverride: { header: {} } } };
  }
  const asts = parsed(template);
  const context = contextVariable(input.context);
  const variables = {
    input: inputVariable(input.body, input.parameters),
    util: utilVariable(),
    context,
    stageVariables: { ...input.stageVariables },
  };
  try {
    const { Compile } = velocity();
    const text = new Compile(asts, { customMethodHandlers: JAVA_METHOD_HANDLERS as any }).render(variables);
    return { text, context };
  } catch (e) {
    if (e instanceof TemplateError) {
      throw e;
    }
    throw new TemplateError('configuration', `the mapping template failed: ${(e as Error).message}`);
  }
}
