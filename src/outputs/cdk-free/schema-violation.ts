/**
 * One way in which a document breaks the vendor_outputs.json schema.
 */
export interface SchemaViolation {
  /**
   * JSON pointer (RFC 6901) of the offending value, or of the missing or unexpected key.
   */
  readonly pointer: string;

  /**
   * What is wrong and what is allowed, e.g. `must be one of: NONE, OPTIONAL, REQUIRED (got "SOMETIMES")`.
   */
  readonly message: string;
}
