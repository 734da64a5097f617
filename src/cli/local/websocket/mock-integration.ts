/**
 * A route's `MOCK` integration run for one event, as "Set up data mapping for WebSocket APIs" and
 * "Integration responses for WebSocket APIs" describe it: the request template chosen by the
 * template selection expression, rendered by the mapping template engine of REST APIs
 * (rest/mapping/) with `$input` over the client's message and the WebSocket `$context`, names the
 * status code (`{"statusCode": 200}`); the integration response of that code renders, with its own
 * template, what a two-way route sends back. Nothing is called.
 */
import { selectIntegrationResponse, selectTemplate } from './template-selection';
import type { EventSource, Handshake } from './websocket-events';
import { queryParameters } from './websocket-events';
import { ownSet } from '../common/own-record';
import type { WebSocketMockIntegrationSpec } from '../model/websocket-api';
import { renderTemplate, TemplateInput } from '../rest/mapping/render-template';
import { TemplateError } from '../rest/mapping/template-error';

/** The status code a rendered request template names (quoted or not, as REST's MOCK reads it). */
const STATUS_CODE = /"?statusCode"?\s*:\s*"?(\d{3})\b/;

/** The status a template without one (or no template at all) gives: 200, as REST's MOCK does (not checked against the service). */
const DEFAULT_STATUS = 200;

/** One event a MOCK integration answers. */
export interface MockEvent {
  readonly source: EventSource;
  readonly routeKey: string;
  readonly eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT';
  /** The client's message; empty for `$connect` and `$disconnect`. */
  readonly body: string;
  readonly messageId: string | null;
  readonly requestId: string;
  readonly requestTimeEpoch: number;
  readonly stageVariables: Readonly<Record<string, string>>;
  /** `$connect`: the handshake, whose headers and query string `$input.params()` reads. */
  readonly handshake?: Handshake;
}

export type MockOutcome =
  /** `message`: the integration response's rendered template (undefined when none applies). */
  | { readonly ok: true; readonly statusCode: number; readonly message?: string }
  | { readonly ok: false; readonly why: string };

/** Runs the integration; `respond`: render the integration response too (a two-way route). */
export async function runMock(integration: WebSocketMockIntegrationSpec, event: MockEvent, respond: boolean): Promise<MockOutcome> {
  const input = templateInput(event);
  try {
    const request = selectTemplate(integration.requestTemplates, integration.templateSelectionExpression, { body: event.body });
    const rendered = request === undefined ? '' : (await renderTemplate(request, input)).text;
    const statusCode = Number(STATUS_CODE.exec(rendered)?.[1] ?? DEFAULT_STATUS);
    if (!respond) {
      return { ok: true, statusCode };
    }
    const response = selectIntegrationResponse(integration.responses, statusCode);
    const template = response === undefined ? undefined
      : selectTemplate(response.responseTemplates, response.templateSelectionExpression, { body: event.body, statusCode });
    return template === undefined ? { ok: true, statusCode } : { ok: true, statusCode, message: (await renderTemplate(template, input)).text };
  } catch (error) {
    if (error instanceof TemplateError) {
      return { ok: false, why: `MOCK integration: ${error.message}` };
    }
    throw error;
  }
}

/** `$input` over the client's message, `$input.params()` over the handshake, `$context` of the connection and event. */
function templateInput(event: MockEvent): TemplateInput {
  const { connection, apiId } = event.source;
  const header: Record<string, string> = {};
  for (const [name, value] of event.handshake?.rawHeaders ?? []) {
    ownSet(header, name, value);
  }
  return {
    body: event.body,
    parameters: { path: {}, querystring: queryParameters(event.handshake?.rawQuery ?? '').single ?? {}, header },
    context: {
      apiId,
      accountId: '123456789012',
      requestId: event.requestId,
      extendedRequestId: event.requestId,
      // REST's variables a WebSocket API has not: empty.
      httpMethod: '',
      resourcePath: '',
      resourceId: '',
      path: '',
      stage: connection.stage,
      requestTimeEpoch: event.requestTimeEpoch,
      domainName: connection.domainName,
      sourceIp: connection.sourceIp,
      userAgent: connection.userAgent,
      identity: connection.iamIdentity ?? null,
      ...(connection.authorizer === undefined ? {} : { authorizer: connection.authorizer }),
      more: {
        connectionId: connection.connectionId,
        connectedAt: connection.connectedAt,
        routeKey: event.routeKey,
        eventType: event.eventType,
        messageId: event.messageId,
        messageDirection: 'IN',
      },
    },
    stageVariables: event.stageVariables,
  };
}
