/**
 * The service's WebSocket quotas ("Quotas for configuring and running a WebSocket API in API
 * Gateway"; none can be increased): idle connection timeout 10 minutes, connection duration
 * 2 hours, frame 32 KB and message payload 128 KB (a larger frame or message closes the connection
 * with 1009). The service
 * lets nobody configure them; the local server reads overrides from the environment so that tests
 * (and impatient users) need not wait hours: VENDOR_OUTPUTS_WS_IDLE_MS, VENDOR_OUTPUTS_WS_DURATION_MS,
 * VENDOR_OUTPUTS_WS_FRAME_BYTES, VENDOR_OUTPUTS_WS_MESSAGE_BYTES.
 */
export interface WebSocketLimits {
  readonly idleTimeoutMs: number;
  readonly maxDurationMs: number;
  readonly maxFrameBytes: number;
  readonly maxMessageBytes: number;
}

export const SERVICE_LIMITS: WebSocketLimits = {
  idleTimeoutMs: 10 * 60 * 1000,
  maxDurationMs: 2 * 60 * 60 * 1000,
  maxFrameBytes: 32 * 1024,
  maxMessageBytes: 128 * 1024,
};

export function webSocketLimits(env: NodeJS.ProcessEnv): WebSocketLimits {
  return {
    idleTimeoutMs: positive(env.VENDOR_OUTPUTS_WS_IDLE_MS) ?? SERVICE_LIMITS.idleTimeoutMs,
    maxDurationMs: positive(env.VENDOR_OUTPUTS_WS_DURATION_MS) ?? SERVICE_LIMITS.maxDurationMs,
    maxFrameBytes: positive(env.VENDOR_OUTPUTS_WS_FRAME_BYTES) ?? SERVICE_LIMITS.maxFrameBytes,
    maxMessageBytes: positive(env.VENDOR_OUTPUTS_WS_MESSAGE_BYTES) ?? SERVICE_LIMITS.maxMessageBytes,
  };
}

function positive(text: string | undefined): number | undefined {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value > 0 ? value : undefined;
}
