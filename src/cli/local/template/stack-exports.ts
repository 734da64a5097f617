/**
 * `Fn::ImportValue` across the stacks of one cloud assembly: a CDK app whose API is in one stack and
 * whose table is in another reads the table's name through an export (`Outputs.<key>.Export.Name`).
 * The import is answered by the exporting stack's own resolver, so it follows the same order there
 * (the local API, deployed values, the template, stand-ins), and its stand-ins are listed where used.
 */
import type { LocalValues, TextValue } from './local-values';

/** The exports of an assembly's stacks, by name. */
export interface StackExports {
  /** The export's value, when known (no stand-in). */
  known(exportName: string): string | undefined;
  /** The export's value as text, stand-ins included; undefined when no stack exports the name. */
  text(exportName: string): TextValue | undefined;
}

/** One stack that may export values. */
export interface ExportingStack {
  readonly artifactId: string;
  readonly template: Record<string, any>;
}

/** No exports (a reader of one template only). */
export const NO_EXPORTS: StackExports = { known: () => undefined, text: () => undefined };

/**
 * The exports of `stacks`; `valuesOf` gives a stack's resolver (made on first use, so a stack that
 * exports nothing used costs nothing). An export whose value imports itself back is unknown.
 */
export function assemblyExports(stacks: readonly ExportingStack[], valuesOf: (artifactId: string) => LocalValues): StackExports {
  const exporters = new Map<string, { artifactId: string; value: unknown }>();
  for (const stack of stacks) {
    for (const output of Object.values<any>(stack.template.Outputs ?? {})) {
      const name = output?.Export?.Name;
      if (typeof name === 'string' && !exporters.has(name)) {
        exporters.set(name, { artifactId: stack.artifactId, value: output.Value });
      }
    }
  }
  const evaluating = new Set<string>();
  const text = (exportName: string): TextValue | undefined => {
    const exporter = exporters.get(exportName);
    if (exporter === undefined || evaluating.has(exportName)) {
      return undefined;
    }
    evaluating.add(exportName);
    try {
      return valuesOf(exporter.artifactId).text(exporter.value);
    } finally {
      evaluating.delete(exportName);
    }
  };
  return {
    text,
    known: (exportName) => {
      const value = text(exportName);
      return value?.value !== undefined && value.standIns.length === 0 ? value.value : undefined;
    },
  };
}
