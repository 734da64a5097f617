/**
 * What the server and a template host process (template-host.ts) say to each other: a template to
 * evaluate with its input, and its output or the {@link TemplateError} it failed with, as plain data.
 */
import type { TemplateInput, TemplateOutput } from './evaluate-template';
import type { TemplateErrorKind } from './template-error';

export interface EvaluateRequest {
  readonly id: number;
  readonly template: string;
  readonly input: TemplateInput;
}

/** A {@link TemplateError} as it crosses between processes. */
export interface FailureReport {
  readonly kind: TemplateErrorKind;
  readonly reason: string;
  /** velocityjs may have added the template position to the message. */
  readonly message: string;
}

export type EvaluateReply =
  | { readonly id: number; readonly output: TemplateOutput }
  | { readonly id: number; readonly failure: FailureReport };

/** What a host sends: once that it is ready (its engine loaded), then a reply per request. */
export type HostMessage = EvaluateReply | { readonly ready: true };
