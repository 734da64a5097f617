/**
 * The error of the carriage format: a missing or malformed piece of what a deployed stack should
 * carry. Its own module, below every reader of the format (carried-shape.ts, compressed-document.ts,
 * carriage.ts), so that none of them imports another only to throw it. Free of aws-cdk-lib.
 */

/** A missing or malformed piece of what a deployed stack should carry. */
export class CarriageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CarriageError';
  }
}
