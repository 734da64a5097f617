import { MAX_TEMPLATE_OUTPUT_BYTES, TEMPLATE_DEADLINE_MS } from './template-limits';

/**
 * Why a mapping template could not be evaluated. `kind` says how the gateway answers: a body the
 * template reads as JSON that is not JSON is the client's fault (400); anything else is the API's
 * configuration (500), a template past the gateway's limits included.
 */
export type TemplateErrorKind = 'body-not-json' | 'configuration';

export class TemplateError extends Error {
  /** The reason alone (velocityjs appends the template position to `message`). */
  public readonly reason: string;

  constructor(public readonly kind: TemplateErrorKind, reason: string) {
    super(reason);
    this.name = 'TemplateError';
    this.reason = reason;
  }
}

/** A string the template built, or its output, passed the payload limit. */
export function outputTooLarge(): TemplateError {
  return new TemplateError('configuration',
    `the template's output passed API Gateway's payload limit of ${MAX_TEMPLATE_OUTPUT_BYTES} bytes (10 MB)`);
}

/** The template ran past its deadline (stopped by itself, or its host killed). */
export function pastDeadline(): TemplateError {
  return new TemplateError('configuration', `the template ran longer than ${TEMPLATE_DEADLINE_MS} ms and was stopped`);
}
