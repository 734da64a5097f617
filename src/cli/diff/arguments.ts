/**
 * diff's arguments: generate's options (which stack, --format, ...), plus its own `--json` and the
 * local FILE. The rebuild service's parser, which generate uses too, checks the options, so both
 * commands accept the same ones.
 */
import { parseArgs } from 'util';
import { UsageError } from '../command';
import { parseRebuildArgs, REBUILD_OPTIONS } from '../rebuild/arguments';
import { RebuildRequest } from '../rebuild/rebuild-request';

export interface DiffRequest {
  /** What generate would build, as generate reads its arguments. */
  readonly generate: RebuildRequest;
  /** The local file; undefined when not given (then the format's file in the current folder). */
  readonly file?: string;
  /** Print the changes as one JSON document. */
  readonly json: boolean;
  /** Whether `--format` was given (otherwise a FILE ending in .dart is read as dart). */
  readonly formatGiven: boolean;
}

const OWN_OPTIONS = { json: { type: 'boolean' } } as const;

export function parseDiffArgs(args: string[]): DiffRequest {
  let parsed: ReturnType<typeof parseAll>;
  try {
    parsed = parseAll(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, tokens, positionals } = parsed;
  if (values['out-dir'] !== undefined) {
    throw new UsageError('diff writes nothing, so it takes no --out-dir: give the file to compare as FILE (default: ./vendor_outputs.json)');
  }
  if (positionals.length > 1) {
    throw new UsageError(`diff compares one FILE (got ${positionals.length}: ${positionals.join(', ')})`);
  }
  if (positionals[0]?.trim() === '') {
    throw new UsageError('FILE needs a non-empty path');
  }
  // generate's parser sees exactly its own options: drop --json, FILE and a `--` before it.
  const own = new Set<number>();
  for (const token of tokens) {
    if (token.kind === 'positional' || token.kind === 'option-terminator' || (token.kind === 'option' && token.name === 'json')) {
      own.add(token.index);
    }
  }
  const generate = parseRebuildArgs(args.filter((_, index) => !own.has(index)));
  return { generate, file: positionals[0], json: values.json === true, formatGiven: values.format !== undefined };
}

function parseAll(args: string[]) {
  return parseArgs({ args, options: { ...REBUILD_OPTIONS, ...OWN_OPTIONS }, strict: true, allowPositionals: true, tokens: true });
}
