/**
 * Recognizes the text that stands for a deploy-time value in a synth-time file
 * (`pendingMarker` in src/outputs/carriage.ts writes it).
 */

/** What every marker starts with; cheap to test before the full pattern. */
export const PENDING_MARKER_PREFIX = '<pending: ';

const PENDING_MARKER = /^<pending: Outputs\.[A-Za-z0-9]+\[\d+\] after deploy; run 'vendor-outputs generate'>$/;

/** True when `value` is a pending-value marker, as the synth-time writer puts them. */
export function isPendingMarker(value: string): boolean {
  return value.startsWith(PENDING_MARKER_PREFIX) && PENDING_MARKER.test(value);
}
