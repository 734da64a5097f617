/**
 * Everything `vendor-outputs validate` checks in one file, as lines `FILE:LINE:COLUMN: POINTER: message`.
 */
import { scanJson, TextPosition } from './json-scan';
import { ownKeyCount } from './own-key-count';
import { decodeText, readFileBytes } from './read-text-file';
import { displayPointer } from '../../outputs/cdk-free/json-pointer';
import { validateDocument } from '../../outputs/cdk-free/validation';

/** Problems printed per file; the rest are counted in one last line. */
export const PROBLEM_LIMIT = 50;

export interface CheckOptions {
  /** Accept pending-value markers (a synth-time file). */
  readonly allowPending: boolean;
  /** Most problem lines printed for the file. */
  readonly limit: number;
}

export interface FileCheck {
  /** The lines to print: at most `limit` problems, then `and K more`. */
  readonly lines: string[];
  /** Problems found in all. */
  readonly problemCount: number;
  /** Values pending until deploy (accepted with `allowPending`). */
  readonly pendingCount: number;
}

/** The problems of one file: the first `limit` kept, printed in the order of the file. */
class ProblemList {
  private readonly listed: Array<{ position: TextPosition; line: string }> = [];
  private count = 0;
  constructor(private readonly file: string, private readonly limit: number) {}

  public add(position: TextPosition, pointer: string | undefined, message: string): void {
    this.count++;
    if (this.listed.length < this.limit) {
      const where = pointer === undefined ? '' : ` ${displayPointer(pointer)}:`;
      this.listed.push({ position, line: `${this.file}:${position.line}:${position.column}:${where} ${message}` });
    }
  }

  /** Counts problems that are not printed one by one. */
  public addUnlisted(count: number): void {
    this.count += count;
  }

  public finish(pendingCount = 0): FileCheck {
    const lines = [...this.listed]
      .sort((a, b) => a.position.line - b.position.line || a.position.column - b.position.column)
      .map((problem) => problem.line);
    if (this.count > lines.length) {
      lines.push(`${this.file}: and ${this.count - lines.length} more problem(s)`);
    }
    return { lines, problemCount: this.count, pendingCount };
  }
}

/** Checks one file. Files that cannot be read or are not regular files throw CliErrors (exit 2). */
export function checkFile(file: string, options: CheckOptions): FileCheck {
  const problems = new ProblemList(file, options.limit);
  const decoded = decodeText(readFileBytes(file));
  for (const problem of decoded.problems) {
    problems.add(problem.position, undefined, problem.message);
  }
  const text = decoded.text;
  if (text === undefined) {
    return problems.finish();
  }

  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // JSON.parse names no line, and often no position: the scan finds where and what.
    const scan = scanJson(text, { parsed: false, findingLimit: 0 });
    const syntax = scan.syntaxError ?? { position: { line: 1, column: 1 }, message: (error as Error).message };
    problems.add(syntax.position, undefined, `not valid JSON: ${syntax.message}`);
    return problems.finish();
  }

  const violations = validateDocument(document);
  const shown = violations.slice(0, options.limit);
  const scanOptions = { parsed: true, findingLimit: options.limit, locate: shown.map((v) => v.pointer) };
  let scan = scanJson(text, scanOptions);
  if (scan.memberCount !== ownKeyCount(document)) {
    // JSON.parse dropped values of repeated keys: scan again, keeping the keys of each object.
    scan = scanJson(text, { ...scanOptions, duplicates: true });
  }
  for (const finding of scan.findings) {
    problems.add(finding.position, finding.pointer, finding.message);
  }
  problems.addUnlisted(scan.findingCount - scan.findings.length);
  for (const violation of shown) {
    problems.add(scan.locate(violation.pointer), violation.pointer, violation.message);
  }
  problems.addUnlisted(violations.length - shown.length);
  if (scan.firstPending !== undefined && !options.allowPending) {
    const count = scan.pendingCount;
    problems.add(scan.firstPending.position, scan.firstPending.pointer,
      `holds ${count} value${count === 1 ? '' : 's'} pending until deploy (this is the first): it is a synth-time file, `
      + "not a final vendor_outputs.json; after 'cdk deploy' run 'vendor-outputs generate' "
      + '(or pass --allow-pending to accept pending values)');
  }
  return problems.finish(scan.pendingCount);
}
