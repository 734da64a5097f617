/**
 * A template host: a child process of the server that evaluates mapping templates, one at a time,
 * as the server sends them (template-hosts.ts). Whatever a template does here (loops until its
 * deadline, builds strings, runs out of memory and aborts the process), the server's own thread
 * goes on answering and can stop at any time.
 */
import { evaluateTemplate, loadTemplateEngine } from './evaluate-template';
import { TemplateError } from './template-error';
import type { EvaluateReply, EvaluateRequest, FailureReport, HostMessage } from './template-protocol';

function failureOf(error: unknown): FailureReport {
  if (error instanceof TemplateError) {
    return { kind: error.kind, reason: error.reason, message: error.message };
  }
  const message = `the mapping template failed: ${(error as Error)?.message ?? String(error)}`;
  return { kind: 'configuration', reason: message, message };
}

function evaluate(request: EvaluateRequest): EvaluateReply {
  try {
    return { id: request.id, output: evaluateTemplate(request.template, request.input) };
  } catch (error) {
    return { id: request.id, failure: failureOf(error) };
  }
}

function send(message: HostMessage): void {
  process.send!(message);
}

process.on('message', (request: EvaluateRequest) => send(evaluate(request)));
loadTemplateEngine();
send({ ready: true });
// The server went away (even killed): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
