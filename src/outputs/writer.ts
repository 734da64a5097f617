import * as path from 'path';
import { Annotations, IAspect, Stack, Stage } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { assemblyOutputsFileName } from './cdk-free/file-names';
import { displayPointer } from './cdk-free/json-pointer';
import { validateDocument } from './cdk-free/validation';
import { OutputsCollector } from './collector';
import { contributorsAt } from './merge';

/** Name of the file the writer puts next to the stack's template in the cloud assembly. */
export function assemblyFileName(stack: Stack): string {
  return assemblyOutputsFileName(stack.artifactId);
}

/**
 * Validates and renders `<stack artifact id>.vendor_outputs.json` for the cloud assembly.
 *
 * Added to the collector at `AspectPriority.READONLY`, so it runs after every mutating aspect
 * (with CDK's aspect stabilization, the default for new apps). It only reads the tree:
 * it adds no construct, so it never makes the aspect loop run again. It writes nothing itself:
 * the file is written by {@link DeferredWrites} once the whole app has validated.
 */
export class VendorOutputsWriter implements IAspect {
  constructor(private readonly collector: OutputsCollector) {}

  public visit(node: IConstruct): void {
    if (node !== this.collector) {
      return;
    }
    const stack = Stack.of(node);
    const document = this.collector.synthDocument();
    const violations = validateDocument(document);
    if (violations.length > 0) {
      const lines = violations.map((v) => {
        const from = contributorsAt(this.collector.provenance, v.pointer);
        return `${displayPointer(v.pointer)}: ${v.message}${from.length > 0 ? ` [from ${from.join(', ')}]` : ''}`;
      });
      throw new Error(`Invalid vendor_outputs.json for stack ${stack.node.path} (nothing written):\n  ${lines.join('\n  ')}`);
    }

    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (text.includes('"__proto__":')) {
      // Only a key can be followed by a colon outside a string. aws-cdk-lib rebuilds every object
      // of the template when it resolves tokens, and an assignment to `__proto__` sets no key.
      Annotations.of(this.collector).addWarningV2('cdk-vendor-outputs:proto-key',
        'A key named __proto__ is written to the synth-time file, but aws-cdk-lib drops it from the template Metadata, '
        + "so 'vendor-outputs generate' cannot rebuild it after deploy. Rename the key.");
    }
    const assemblyFile = path.join(Stage.of(stack)!.outdir, assemblyFileName(stack));
    const pending = this.collector.pendingEntries().length;
    const outputFile = this.collector.outputFile;
    if (outputFile !== undefined && pending > 0) {
      Annotations.of(this.collector).addWarningV2('cdk-vendor-outputs:pending',
        `${outputFile.path} not written: ${pending} value(s) are known only after deploy. `
        + `After 'cdk deploy', run 'vendor-outputs generate --stack ${stack.stackName}'.`);
    }
    this.collector.prepared = { assemblyFile, text, copyTo: pending === 0 ? outputFile?.path : undefined };
  }
}
