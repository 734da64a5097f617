import { CfnOutput, Fn, Lazy, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { CarriedDocument, carriedMetadata, MAX_OUTPUTS, METADATA_KEY, PendingEntry, pendingMarker, SLOT_SEPARATOR, VALUES_PER_OUTPUT } from './cdk-free/carriage';
import { dataObject, hasOwn } from './cdk-free/json-data';
import { childPointer } from './cdk-free/json-pointer';
import { PendingToken } from './cdk-free/pending-token';
import { toFileShape } from './conversion';
import { DeferredWrites, FileSource, PreparedFile } from './deferred-writes';
import { mergeInto, Provenance } from './merge';
import { SectionClaims } from './ownership';
import { VendorOutputsSchema } from './schema';
import { schemaRoot } from './schema-walk';

/**
 * The one per-stack construct that gathers every `addOutput`, carries deploy-time values
 * through stack outputs and template Metadata, and is visited by the writer aspect.
 */
export class OutputsCollector extends Construct implements FileSource {
  /** Construct id under the stack; the dot keeps it apart from ids users pick. */
  public static readonly ID = 'VendorOutputs.Collector';

  /** The stack's collector, or undefined when nothing has used the stack yet. */
  public static find(stack: Stack): OutputsCollector | undefined {
    return stack.node.tryFindChild(OutputsCollector.ID) as OutputsCollector | undefined;
  }

  /**
   * Adds one `addOutput` argument to `stack`'s document. Every check runs before anything
   * changes: a refused call throws with every problem found and leaves the document, its
   * provenance and the stack outputs as they were; on a stack without outputs yet, it does not
   * even create the collector (so no file is written for it).
   *
   * @param create makes the stack's collector, for the first contribution that passes
   */
  public static add(stack: Stack, part: Record<string, unknown>, source: string, create: () => OutputsCollector): void {
    const converted = convertOutputs(part, source);
    const existing = OutputsCollector.find(stack);
    if (existing === undefined) {
      checkCapacity(`${stack.node.path}/${OutputsCollector.ID}`, 0, distinctTokens(converted, new Map()).length, source);
    }
    (existing ?? create()).merge(converted, source);
  }

  /** The merged document so far, in the file's shape, with pending tokens. */
  public readonly document: Record<string, unknown> = dataObject();
  /** Which construct wrote which pointer first. */
  public readonly provenance: Provenance = new Map();
  /** Absolute path the final file is copied to, and the construct that asked for it. */
  public outputFile?: { readonly path: string; readonly source: string };
  /** The file as the writer aspect rendered it, written once the whole app has validated. */
  public prepared?: PreparedFile;

  private readonly claims = new SectionClaims();
  /** Names reserved per backend (an API name, the storage bucket), by kind: name → construct path. */
  private readonly reservations = new Map<string, Map<string, string>>();

  private readonly slots: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly outputs: CfnOutput[] = [];
  /** pendingEntries() result, valid until the next add(). */
  private pendingCache?: PendingEntry[];

  constructor(private readonly stack: Stack) {
    super(stack, OutputsCollector.ID);
    stack.addMetadata(METADATA_KEY, Lazy.any({ produce: () => carriedMetadata(this.carried()) }));
    const files = DeferredWrites.of(this);
    files.register(this);
    this.node.addValidation({ validate: () => files.sharedTargetProblems(this) });
  }

  /** Construct path of the stack whose file this is. */
  public get backend(): string {
    return this.stack.node.path;
  }

  /** Checks ownership, conflicts and capacity, then merges a converted contribution. */
  private merge(converted: Record<string, unknown>, source: string): void {
    for (const [section, value] of Object.entries(converted)) {
      this.claims.checkWrite(section, typeof value === 'object' && value !== null ? Object.keys(value) : [], source);
    }
    const newTokens = distinctTokens(converted, this.slotOf);
    checkCapacity(this.node.path, this.slots.length, newTokens.length, source);
    mergeInto(this.document, this.provenance, converted, source);
    this.assignSlots(newTokens);
    this.pendingCache = undefined;
  }

  /** `source` becomes the only construct that may write `section`. */
  public claim(section: string, source: string): void {
    const writers = [...this.provenance].filter(([p]) => p === `/${section}` || p.startsWith(`/${section}/`)).map(([, s]) => s);
    this.claims.claim(section, source, [...new Set(writers)]);
  }

  /** The construct path of the producer of `section`, if it has one. */
  public producerOf(section: string): string | undefined {
    return this.claims.ownerOf(section);
  }

  /** The construct path that reserved `name` of this `kind`, if any. */
  public reservedBy(kind: string, name: string): string | undefined {
    return this.reservations.get(kind)?.get(name);
  }

  /** Records that `holder` has `name` of this `kind`; throws when another construct has it. */
  public reserve(kind: string, name: string, holder: string): void {
    const current = this.reservedBy(kind, name);
    if (current !== undefined && current !== holder) {
      throw new Error(`${holder} cannot reserve ${kind} '${name}': ${current} already has it (one per backend)`);
    }
    let names = this.reservations.get(kind);
    if (names === undefined) {
      names = new Map();
      this.reservations.set(kind, names);
    }
    names.set(name, holder);
  }

  /** Every pending value with the output that carries it, in document order. */
  public pendingEntries(): PendingEntry[] {
    this.pendingCache ??= this.findPendingEntries();
    return this.pendingCache;
  }

  private findPendingEntries(): PendingEntry[] {
    const entries: PendingEntry[] = [];
    walk(this.document, '', (pointer, value) => {
      if (value instanceof PendingToken) {
        const slot = this.slotOf.get(value.token)!;
        const output = this.stack.resolve(this.outputs[Math.floor(slot / VALUES_PER_OUTPUT)].logicalId) as string;
        entries.push({ pointer, output, index: slot % VALUES_PER_OUTPUT });
      }
    });
    return entries;
  }

  /**
   * The document as written at synth: managed keys first, sections in schema order,
   * pending values replaced by `replacement(entry)`.
   */
  public render(replacement: (entry: PendingEntry) => unknown): Record<string, unknown> {
    const entries = new Map(this.pendingEntries().map((e) => [e.pointer, e]));
    const result: Record<string, unknown> = { $schema: VendorOutputsSchema.SCHEMA_ID, version: VendorOutputsSchema.VERSION };
    for (const section of Object.keys(schemaRoot().properties)) {
      if (hasOwn(this.document, section)) {
        result[section] = substitute(this.document[section], childPointer('', section), (p) => replacement(entries.get(p)!));
      }
    }
    return result;
  }

  /** The synth-time document, with a readable marker where a value is pending. */
  public synthDocument(): Record<string, unknown> {
    return this.render(pendingMarker);
  }

  /** Each pending value's pointer and token, in document order. */
  public pendingTokens(): Array<{ readonly pointer: string; readonly token: string }> {
    const found: Array<{ pointer: string; token: string }> = [];
    walk(this.document, '', (pointer, value) => {
      if (value instanceof PendingToken) {
        found.push({ pointer, token: value.token });
      }
    });
    return found;
  }

  /**
   * The document as CloudFormation fills it at deploy: each pending value is its token, which
   * resolves to the deployed value. Same keys, order and values as what `generate` rebuilds.
   */
  public deployTimeDocument(): Record<string, unknown> {
    const tokens = new Map(this.pendingTokens().map((p) => [p.pointer, p.token]));
    return this.render((entry) => tokens.get(entry.pointer));
  }

  /** What goes into the template Metadata: the skeleton with `null` where a value is pending. */
  public carried(): CarriedDocument {
    return { document: this.render(() => null), pending: this.pendingEntries() };
  }

  /** Gives each new token a slot, adding stack outputs as needed (capacity was checked by add). */
  private assignSlots(tokens: string[]): void {
    for (const token of tokens) {
      this.slotOf.set(token, this.slots.length);
      this.slots.push(token);
    }
    while (this.outputs.length * VALUES_PER_OUTPUT < this.slots.length) {
      const index = this.outputs.length;
      this.outputs.push(new CfnOutput(this, `Values${index}`, {
        description: 'cdk-vendor-outputs: deploy-time values of vendor_outputs.json (comma-separated Base64)',
        value: Lazy.string({ produce: () => this.packedValue(index) }),
      }));
    }
  }

  private packedValue(output: number): string {
    const slots = this.slots.slice(output * VALUES_PER_OUTPUT, (output + 1) * VALUES_PER_OUTPUT);
    return Fn.join(SLOT_SEPARATOR, slots.map((token) => Fn.base64(token)));
  }
}

/** Converts one `addOutput` argument to the file's shape; throws, listing every problem, when it cannot be written. */
function convertOutputs(part: Record<string, unknown>, source: string): Record<string, unknown> {
  const errors: string[] = [];
  const converted = toFileShape(part, errors);
  if (errors.length > 0) {
    throw new Error(`Invalid addOutput from ${source}:\n  ${errors.join('\n  ')}`);
  }
  return converted;
}

/** The distinct tokens of `node` that have no slot in `known` yet, in document order. */
function distinctTokens(node: unknown, known: ReadonlyMap<string, number>): string[] {
  const found = new Set<string>();
  walk(node, '', (_, value) => {
    if (value instanceof PendingToken && !known.has(value.token)) {
      found.add(value.token);
    }
  });
  return [...found];
}

/** Throws when `adding` more distinct values would not fit in the stack outputs the library may use. */
function checkCapacity(where: string, used: number, adding: number, source: string): void {
  if (used + adding > MAX_OUTPUTS * VALUES_PER_OUTPUT) {
    throw new Error(`${where}: more than ${MAX_OUTPUTS * VALUES_PER_OUTPUT} distinct deploy-time values in vendor outputs (addOutput from ${source} adds ${adding} to ${used}); `
      + `cdk-vendor-outputs uses at most ${MAX_OUTPUTS} of CloudFormation's 200 stack outputs. Use fewer distinct token values.`);
  }
}

/** Calls `visit` for every leaf (pending tokens included) with its pointer. */
function walk(node: unknown, pointer: string, visit: (pointer: string, value: unknown) => void): void {
  if (typeof node === 'object' && node !== null && !(node instanceof PendingToken)) {
    for (const [key, child] of Object.entries(node)) {
      walk(child, childPointer(pointer, key), visit);
    }
    return;
  }
  visit(pointer, node);
}

function substitute(node: unknown, pointer: string, replace: (pointer: string) => unknown): unknown {
  if (node instanceof PendingToken) {
    return replace(pointer);
  }
  if (Array.isArray(node)) {
    return node.map((item, i) => substitute(item, childPointer(pointer, i), replace));
  }
  if (typeof node === 'object' && node !== null) {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, childPointer(pointer, k), replace)]));
  }
  return node;
}
