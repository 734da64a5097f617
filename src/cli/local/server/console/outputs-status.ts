/**
 * The console's outputs pane: the vendor_outputs.json the server writes (`serve --write-outputs`,
 * `sandbox`), read again at every request, with what `vendor-outputs validate --allow-pending`
 * says of it and the values still pending until a cloud deploy.
 */
import * as fs from 'fs';
import { pendingPointers } from './pending-pointers';
import { displayPointer } from '../../../../outputs/cdk-free/json-pointer';
import { validateDocument } from '../../../../outputs/cdk-free/validation';
import { DART_CONSTANT, findDartConstant, lineAt } from '../../../outputs-format/dart-constant';
import { checkFile, PROBLEM_LIMIT } from '../../../validate/check-file';

export interface OutputsStatus {
  /** Absolute path of the file; null when the server writes none. */
  readonly file: string | null;
  readonly exists: boolean;
  /** True when the schema check found no problem (pending values are accepted). */
  readonly valid: boolean;
  /** `FILE:LINE:COLUMN: POINTER: message`, as `vendor-outputs validate` prints them. */
  readonly problems: readonly string[];
  /** JSON pointers of the values pending until a cloud deploy. */
  readonly pending: readonly string[];
  /** The parsed document; null when the file is missing or not JSON. */
  readonly document: unknown;
}

const NONE: OutputsStatus = { file: null, exists: false, valid: false, problems: [], pending: [], document: null };

/** The file as it is now; `file` undefined when the server writes none. */
export function outputsStatus(file: string | undefined): OutputsStatus {
  if (file === undefined) {
    return NONE;
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ...NONE, file, problems: code === 'ENOENT' ? [] : [`${file}: cannot be read (${code ?? (error as Error).message})`] };
  }
  return file.endsWith('.dart') ? dartStatus(file, text) : jsonStatus(file, text);
}

function jsonStatus(file: string, text: string): OutputsStatus {
  let problems: string[];
  try {
    problems = checkFile(file, { allowPending: true, limit: PROBLEM_LIMIT }).lines;
  } catch (error) {
    // A file `validate` cannot check throws its command's CliError (by name: local/ does not import the command layer).
    if (!(error instanceof Error) || error.name !== 'CliError') {
      throw error;
    }
    problems = [error.message];
  }
  const document = parseOrNull(text);
  return { file, exists: true, valid: problems.length === 0, problems, pending: document === null ? [] : pendingPointers(document), document };
}

/**
 * `vendor_outputs.dart`: the document is the raw string of the top-level `const vendorConfig`, read
 * as Dart reads the file (a copy in a comment is not it).
 */
function dartStatus(file: string, text: string): OutputsStatus {
  const found = findDartConstant(text);
  if (!found.ok) {
    return { ...NONE, file, exists: true, problems: [`${file}:${lineAt(text, found.offset)}: ${found.message}`] };
  }
  const document = parseOrNull(text.slice(found.contentStart, found.contentEnd));
  if (document === null) {
    return { ...NONE, file, exists: true, problems: [`${file}:${lineAt(text, found.contentStart)}: the raw string of ${DART_CONSTANT} is not JSON`] };
  }
  const problems = validateDocument(document).map((v) => `${file}: ${displayPointer(v.pointer)}: ${v.message}`);
  return { file, exists: true, valid: problems.length === 0, problems, pending: pendingPointers(document), document };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
