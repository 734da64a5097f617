/**
 * The TypeScript code blocks of README.md, with how each is meant to be run.
 *
 * A block is a whole CDK program unless the line right before its fence is a marker:
 *   <!-- readme-test: stack -->     the body of a Stack's constructor (`this` is the stack);
 *                                   names it uses without declaring come from test/readme/fixtures.ts
 *   <!-- readme-test: frontend -->  a frontend module: `./vendor_outputs.json`, the helper package
 *                                   and the placeholder client library `vendor-client` exist
 * Any other `readme-test` marker is an error, so no block is left out without a word.
 */
import * as fs from 'fs';

export type BlockKind = 'program' | 'stack' | 'frontend';

export interface ReadmeBlock {
  /** 1-based line of the opening fence in README.md. */
  readonly line: number;
  readonly kind: BlockKind;
  readonly code: string;
}

const FENCE = /^```(ts|typescript)\s*$/;
const MARKER = /^<!--\s*readme-test:\s*(.*?)\s*-->\s*$/;
const KINDS: BlockKind[] = ['stack', 'frontend'];

export function readmeBlocks(file: string): ReadmeBlock[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (marker && !FENCE.test(lines[i + 1] ?? '') && !(lines[i + 1]?.trim() === '' && FENCE.test(lines[i + 2] ?? ''))) {
      throw new Error(`README.md:${i + 1}: a readme-test marker must come right before a \`\`\`ts block`);
    }
    if (!FENCE.test(lines[i])) {
      continue;
    }
    // The marker sits on the line before the fence, or one blank line above it.
    const before = MARKER.exec(lines[i - 1] ?? '') ?? (lines[i - 1]?.trim() === '' ? MARKER.exec(lines[i - 2] ?? '') : null);
    let kind: BlockKind = 'program';
    if (before) {
      if (!KINDS.includes(before[1] as BlockKind)) {
        throw new Error(`README.md:${i + 1}: unknown readme-test marker '${before[1]}' (allowed: ${KINDS.join(', ')})`);
      }
      kind = before[1] as BlockKind;
    }
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) {
      throw new Error(`README.md:${i + 1}: code block without a closing fence`);
    }
    blocks.push({ line: i + 1, kind, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}
