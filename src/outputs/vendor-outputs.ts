import { AspectPriority, Aspects, Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { OutputsCollector } from './collector';
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
   * value again is fine, another value is a conflict. Throws, naming the key and both
   * construct paths, on unknown keys, managed keys, sections claimed by a producer, conflicts,
   * and deploy-time tokens where the value must be known at synth.
   */
  public addOutput(outputs: BackendOutputs): void {
    this.collector().add(outputs as Record<string, unknown>, this.scope.node.path);
  }

  /**
   * Makes `scope` the producer of `section`: afterwards only `scope` (and constructs inside it)
   * may write into it. For constructs that generate a section from a real definition.
   */
  public claim(section: OutputSection): void {
    this.collector().claim(section, this.scope.node.path);
  }

  /**
   * Also writes the final file to `filePath` (relative to the working directory of the synth),
   * where the frontend reads it, when no value is pending until deploy.
   */
  public writeFinalFileTo(filePath: string): void {
    this.collector().outputFile = filePath;
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
