/**
 * Renders a mapping template for the gateway: a static template (no `$` and no `#`, such as a CORS
 * preflight's) is its own output, here and at once; any other is evaluated in a template host
 * process (template-hosts.ts), so that no template can keep the server from answering other
 * requests or from stopping.
 */
import { isStaticTemplate, oversizedTemplate, staticOutput, TemplateInput, TemplateOutput } from './evaluate-template';
import { templateHosts } from './template-hosts';

export type { TemplateInput, TemplateOutput } from './evaluate-template';

/**
 * The template's output: at once for a static template, else a promise. Throws (or rejects with)
 * a {@link TemplateError} when the template fails or breaks one of the gateway's limits.
 */
export function renderTemplate(template: string, input: TemplateInput): TemplateOutput | Promise<TemplateOutput> {
  if (isStaticTemplate(template)) {
    const oversized = oversizedTemplate(template);
    if (oversized !== undefined) {
      throw oversized;
    }
    return staticOutput(template);
  }
  return templateHosts().evaluate(template, input);
}
