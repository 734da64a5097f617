import * as path from 'path';
import { readJsonFile } from './cdk-free/json-file';
import { SchemaViolation } from './cdk-free/schema-violation';
import { validateDocument } from './cdk-free/validation';

/**
 * The JSON Schema (draft 2020-12) of vendor_outputs.json, shipped in this package as
 * `schema/vendor-outputs.schema.json`.
 */
export class VendorOutputsSchema {
  /** The schema's `$id`; it carries the dated revision `2024-02`. */
  public static readonly SCHEMA_ID = 'https://cdk-vendor-outputs.example/schemas/2024-02/vendor_outputs.schema.json';

  /** The value of the required `version` field. */
  public static readonly VERSION = '1';

  /** Absolute path of the schema file inside the installed package. */
  public static readonly FILE_PATH = path.join(__dirname, '..', '..', 'schema', 'vendor-outputs.schema.json');

  /** The schema itself, parsed. */
  public static document(): any {
    return readJsonFile(VendorOutputsSchema.FILE_PATH);
  }

  /**
   * Validates a parsed vendor_outputs.json document.
   *
   * @returns every violation, empty when the document is valid
   */
  public static validate(document: any): SchemaViolation[] {
    return validateDocument(document);
  }

  private constructor() {}
}
