/**
 * The text that deploy-time publication writes: the final document exactly as
 * `vendor-outputs generate` writes it (two-space indentation, keys in the same order, a final
 * newline), with each value known only after deploy left as its token for CloudFormation to fill.
 */
import { Stack } from 'aws-cdk-lib';
import { OutputsCollector } from '../collector';

/** The document's text, a string token when a value is pending until deploy. */
export function publishedText(stack: Stack, collector: OutputsCollector): string {
  return `${stack.toJsonString(collector.deployTimeDocument(), 2)}\n`;
}

/** What is known at synth of a published text. */
export interface KnownLength {
  /** Characters known at synth (every character when nothing is pending). */
  readonly characters: number;
  /** Whether some characters come from deploy-time values. */
  readonly pending: boolean;
}

/** Counts the characters of `text` that are known at synth; deploy-time parts count as zero. */
export function knownLength(stack: Stack, text: string): KnownLength {
  const resolved: unknown = stack.resolve(text);
  if (typeof resolved === 'string') {
    return { characters: characterCount(resolved), pending: false };
  }
  const parts = joinParts(resolved);
  const literal = parts.filter((p): p is string => typeof p === 'string');
  return { characters: literal.reduce((sum, p) => sum + characterCount(p), 0), pending: true };
}

/** The parts of an `Fn::Join` with an empty delimiter, as `toJsonString` renders a text with tokens. */
function joinParts(resolved: unknown): unknown[] {
  const join = (resolved as Record<string, unknown> | null)?.['Fn::Join'];
  if (Array.isArray(join) && join[0] === '' && Array.isArray(join[1])) {
    return join[1];
  }
  return [resolved];
}

/** Characters as Parameter Store counts them (code points). */
function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) {
    count++;
  }
  return count;
}
