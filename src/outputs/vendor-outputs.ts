import { AspectPriority, Aspects, Stack, Token } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { OutputsCollector } from './collector';
import { checkFinalFilePath } from './final-file-path';
import { BackendOutputs, OutputSection } from './sections/backend-outputs';
import { assemblyFileName, VendorOutputsWriter } from './writer';

/**
 * The entry point to a stack's vendor_outputs.json.
 *
 * `VendorOutputs.of(this).addOutput({ custom: { ... } })` adds a typed part of the file from
 * any construct. The first use in a stack installs the collector and the synth-time writer;
 * there is nothing else to set up.
 */
export class VendorOutputs {
  /**
   * Returns the outputs of the stack that contains `scope`. Contributions made through the
   * returned object are attributed to `scope`'s construct path in error messages.
   */
  public static of(scope: IConstruct): VendorOutputs {
    return new VendorOutputs(scope);
  }

  /**
   * The stack whose file this is: the stack that contains `scope`, or for a scope inside a
   * nested stack, its top-level parent (values from the nested stack reach it through
   * CloudFormation references, and only top-level stacks are deployed and read by `generate`).
   */
  public readonly stack: Stack;

  private constructor(private readonly scope: IConstruct) {
    let stack = Stack.of(scope);
    while (stack.nestedStackParent !== undefined) {
      stack = stack.nestedStackParent;
    }
    this.stack = stack;
  }

  /**
   * File name of this stack's document in the cloud assembly (`<artifact id>.vendor_outputs.json`).
   */
  public get assemblyFileName(): string {
    return assemblyFileName(this.stack);
  }

  /**
   * Adds a part of the document. Objects merge deeply with earlier parts; writing the same
   * value again is fine, another value is a conflict. Throws, naming the JSON pointer and the
   * construct paths, on unknown keys, managed keys, keys in the file's snake_case spelling in a
   * typed section, values that are not JSON data (a Date, Map, Set, RegExp, NaN, Infinity,
   * Symbol, function, BigInt, class instance, circular value), sections claimed by a producer,
   * conflicts, more than 400 distinct deploy-time values, and deploy-time tokens where the value
   * must be known at synth. A refused call changes nothing.
   */
  public addOutput(outputs: BackendOutputs): void {
    OutputsCollector.add(this.stack, outputs as Record<string, unknown>, this.scope.node.path, () => this.collector());
  }

  /**
   * Makes `scope` the producer of `section`: afterwards only `scope` (and constructs inside it)
   * may write into it. For constructs that generate a section from a real definition.
   */
  public claim(section: OutputSection): void {
    this.collector().claim(section, this.scope.node.path);
  }

  /**
   * The construct path of the producer that owns `section` in this backend (see `claim`), or
   * undefined when the section has none.
   */
  public producerOf(section: OutputSection): string | undefined {
    return OutputsCollector.find(this.stack)?.producerOf(section);
  }

  /**
   * Reserves `name` among the names of `kind` for `scope`, once per backend (top-level stack, nested stacks
   * included): for constructs whose names must be unique in a backend, such as an API name.
   * Reserving a name `scope` already holds is fine. Throws, naming the holder, when another
   * construct holds it; check with `reservedBy` first for a message of your own.
   *
   * @param kind what kind of name, e.g. `RestItemsApi.apiName` (not `namespace`: a word C# reserves)
   * @param name the name to reserve
   */
  public reserve(kind: string, name: string): void {
    this.collector().reserve(kind, name, this.scope.node.path);
  }

  /**
   * The construct path that reserved `name` among the names of `kind` in this backend, or undefined.
   *
   * @param kind what kind of name, e.g. `RestItemsApi.apiName`
   * @param name the name to look up
   */
  public reservedBy(kind: string, name: string): string | undefined {
    return OutputsCollector.find(this.stack)?.reservedBy(kind, name);
  }

  /**
   * Also writes the final file to `filePath` (relative to the working directory of the synth),
   * where the frontend reads it, when no value is pending until deploy. Written, like the file
   * in the cloud assembly, only when the whole app has validated.
   *
   * Throws when `filePath` is empty, a token, holds a NUL byte, names a folder or lies under a
   * file, or when this backend already writes its final file elsewhere. Two backends of an app
   * that write to the same file fail the synth, naming both stacks.
   */
  public writeFinalFileTo(filePath: string): void {
    const where = this.scope.node.path || '(app)';
    if (typeof filePath === 'string' && Token.isUnresolved(filePath)) {
      throw new Error(`${where}: writeFinalFileTo needs a path known at synth (got the token ${filePath})`);
    }
    const absolute = checkFinalFilePath(filePath, where);
    const collector = this.collector();
    const current = collector.outputFile;
    if (current !== undefined && current.path !== absolute) {
      throw new Error(`${where}: writeFinalFileTo(${JSON.stringify(filePath)}): stack ${this.stack.node.path} already writes its final file to ${current.path} `
        + `(asked by ${current.source}); a backend has one final file`);
    }
    collector.outputFile ??= { path: absolute, source: where };
  }

  private collector(): OutputsCollector {
    const existing = OutputsCollector.find(this.stack);
    if (existing) {
      return existing;
    }
    const collector = new OutputsCollector(this.stack);
    Aspects.of(collector).add(new VendorOutputsWriter(collector), { priority: AspectPriority.READONLY });
    return collector;
  }
}
