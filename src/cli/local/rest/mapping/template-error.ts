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
