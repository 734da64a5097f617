/**
 * Writes the files of every backend of an app once the whole app has validated.
 *
 * aws-cdk-lib synthesizes an app in phases: nested stages first (each with its own aspects,
 * validation and synthesis), then the app's aspects, then the validation of every construct
 * (`node.addValidation`; any failure ends the synth), then the synthesis of each construct.
 * The writer aspect only prepares a backend's file; the writing happens in the synthesis phase
 * of the app's root, by a construct at the root that every backend registers with. By then every
 * construct of every stage has validated, so a failed synth writes no file anywhere.
 */
import * as fs from 'fs';
import * as path from 'path';
import { attachCustomSynthesis } from 'aws-cdk-lib';
import { Construct, IConstruct } from 'constructs';
import { writeFileAtomic } from './cdk-free/atomic-write';

/** A backend's file, rendered and checked by the writer aspect, waiting for the write. */
export interface PreparedFile {
  /** Absolute path in the cloud assembly. */
  readonly assemblyFile: string;
  /** The document as written. */
  readonly text: string;
  /** Where the final file is copied too, when it is final and a copy was asked for. */
  readonly copyTo?: string;
}

/** What the root writes for one backend. */
export interface FileSource {
  /** Construct path of the backend's (top-level) stack. */
  readonly backend: string;
  /** Where the final file is copied (absolute), and the construct path that asked for it. */
  readonly outputFile?: { readonly path: string; readonly source: string };
  /** The backend's prepared file; undefined until the writer aspect has visited it. */
  readonly prepared?: PreparedFile;
}

export class DeferredWrites extends Construct {
  /** Construct id under the root; the dot keeps it apart from ids users pick. */
  public static readonly ID = 'VendorOutputs.Files';

  /** The writer of the app that contains `scope`, created on first use. */
  public static of(scope: IConstruct): DeferredWrites {
    const root = scope.node.root as Construct;
    return (root.node.tryFindChild(DeferredWrites.ID) as DeferredWrites | undefined) ?? new DeferredWrites(root);
  }

  private readonly sources: FileSource[] = [];

  private constructor(root: Construct) {
    super(root, DeferredWrites.ID);
    attachCustomSynthesis(this, { onSynthesize: () => this.writeAll() });
  }

  /** Adds a backend whose file is written at synth. */
  public register(source: FileSource): void {
    this.sources.push(source);
  }

  /**
   * Problems with `source`'s final file: another backend, registered earlier, copies its final
   * file to the same path (the last write would win without a word).
   */
  public sharedTargetProblems(source: FileSource): string[] {
    const target = source.outputFile;
    if (target === undefined) {
      return [];
    }
    const earlier = this.sources.slice(0, this.sources.indexOf(source))
      .find((other) => other.outputFile !== undefined && samePath(other.outputFile.path, target.path));
    if (earlier === undefined) {
      return [];
    }
    return [`writeFinalFileTo: stacks ${earlier.backend} and ${source.backend} both write their final file to ${target.path} `
      + `(asked by ${earlier.outputFile!.source} and ${target.source}); give each backend its own file`];
  }

  private writeAll(): void {
    for (const source of this.sources) {
      const prepared = source.prepared;
      if (prepared === undefined) {
        continue;
      }
      writeFileAtomic(prepared.assemblyFile, prepared.text);
      if (prepared.copyTo !== undefined) {
        writeFileAtomic(prepared.copyTo, prepared.text);
      }
    }
  }
}

/**
 * Paths name the same file: compared after following symbolic links in the part that exists
 * (case-insensitively where the file system usually is: macOS, Windows).
 */
function samePath(a: string, b: string): boolean {
  const [x, y] = [canonical(a), canonical(b)];
  return process.platform === 'darwin' || process.platform === 'win32' ? x.toLowerCase() === y.toLowerCase() : x === y;
}

/** `absolute` with its longest existing prefix replaced by that prefix's real path. */
function canonical(absolute: string): string {
  const rest: string[] = [];
  for (let existing = absolute; ; existing = path.dirname(existing)) {
    try {
      return path.join(fs.realpathSync(existing), ...rest);
    } catch {
      if (path.dirname(existing) === existing) {
        return absolute;
      }
      rest.unshift(path.basename(existing));
    }
  }
}
