/**
 * Renders a mapping template for the gateway so that no template can keep the server from
 * answering other requests or from stopping: a static template (no `$` and no `#`, such as a CORS
 * preflight's) is its own output; any other is evaluated here within a short budget (a few
 * milliseconds, the clock read at every step) and, when it needs more, or could spend memory or
 * time in one step (a JavaScript regular expression, `repeat`, a large body), in a template host
 * process (template-hosts.ts) within the gateway's limits. Evaluation has no side effect outside
 * its output, so a template stopped here is evaluated again there from the start.
 */
import { evaluateTemplate, isStaticTemplate, oversizedTemplate, staticOutput, TemplateInput, TemplateOutput } from './evaluate-template';
import { templateHosts } from './template-hosts';
import { IN_THREAD_BUDGET_MS, MAX_IN_THREAD_BODY_CHARS } from './template-limits';

export type { TemplateInput, TemplateOutput } from './evaluate-template';

/**
 * JavaScript string methods velocityjs would call with a pattern or a length the template chose:
 * a backtracking regular expression (`search`, `match`) or one huge allocation (`repeat`,
 * `padStart`) happens within a single step, which the budget cannot stop.
 */
const UNBOUNDED_STEP = /\.\s*(search|match|matchAll|repeat|padStart|padEnd|normalize|localeCompare)\s*\(/;

/** Thrown when a template runs past its budget on the server's thread. */
const OVER_BUDGET = new Error('over the in-thread budget');

/**
 * The template's output: at once for a static template or one that finishes within the budget,
 * else a promise. Throws (or rejects with) a {@link TemplateError} when the template fails or
 * breaks one of the gateway's limits.
 */
export function renderTemplate(template: string, input: TemplateInput): TemplateOutput | Promise<TemplateOutput> {
  if (isStaticTemplate(template)) {
    const oversized = oversizedTemplate(template);
    if (oversized !== undefined) {
      throw oversized;
    }
    return staticOutput(template);
  }
  if (input.body.length <= MAX_IN_THREAD_BODY_CHARS && !UNBOUNDED_STEP.test(template)) {
    try {
      return evaluateTemplate(template, input, { ms: IN_THREAD_BUDGET_MS, stepsPerClockRead: 1, overrun: () => OVER_BUDGET });
    } catch (error) {
      if (error !== OVER_BUDGET) {
        throw error;
      }
    }
  }
  return templateHosts().evaluate(template, input);
}
