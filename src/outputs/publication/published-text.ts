/**
 * The text that deploy-time publication writes: the final document exactly as
 * `vendor-outputs generate` writes it (two-space indentation, keys in the same order, a final
 * newline), with each value known only after deploy left as its token for CloudFormation to fill.
 */
import { Stack } from 'aws-cdk-lib';
import { OutputsCollector } from '../collector';

/**
 * The document's text, with each pending value's token inside its JSON string. Each token stays
 * a token of its own in the text (aws-cdk-lib resolves the text to an `Fn::Join`), so
 * BucketDeployment gives each deploy-time value its own marker, which its handler JSON-escapes;
 * `Stack.toJsonString` would make the whole text one token instead.
 */
export function publishedText(collector: OutputsCollector): string {
  return `${JSON.stringify(collector.deployTimeDocument(), null, 2)}\n`;
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
