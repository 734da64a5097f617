/**
 * An event built where the function runs. An API's finished event is about twice the JSON of what
 * it is built from (a REST event repeats every header in `multiValueHeaders` and names a dozen empty
 * identity fields), and serializing it to a runtime process is the server's largest cost per
 * invocation. So an API kind may hand the invoker the input and the builder instead: a runtime
 * family whose environments can load the builder (Node.js) builds the event there, off the server's
 * thread; any other family calls {@link finishedEvent} first. Either way the function receives the
 * same event the builder makes.
 */

/** A module of this package exporting a function from one JSON value to the finished event. */
export interface EventBuilder {
  /** Absolute path of the module (`require.resolve`). */
  readonly module: string;
  readonly exportName: string;
  /** At most how many times the event's JSON is longer than the input's (for the 6 MB check). */
  readonly sizeFactor: number;
}

/** The key that marks a deferred event; it survives JSON, so the event can cross to another process. */
const DEFERRED = 'vendor-outputs:deferred-event';

/** An event still to be built: the builder and its input, as plain JSON. */
export interface DeferredEvent {
  readonly [DEFERRED]: EventBuilder;
  readonly input: unknown;
}

/**
 * The event `builder` makes of `input`, to be built where the function runs. A builder that plain
 * Node.js cannot load (a TypeScript source, when the tests run the sources) builds it here.
 */
export function deferEvent(builder: EventBuilder, input: unknown): unknown {
  if (!builder.module.endsWith('.js')) {
    return build(builder, input);
  }
  return { [DEFERRED]: builder, input };
}

export function isDeferredEvent(event: unknown): event is DeferredEvent {
  return typeof event === 'object' && event !== null && DEFERRED in event;
}

/** The finished event: a deferred event built, any other event as it is. */
export function finishedEvent(event: unknown): unknown {
  return isDeferredEvent(event) ? build(event[DEFERRED], event.input) : event;
}

/** How many times a deferred event's JSON may be longer than its input's (1 for a finished event). */
export function sizeFactorOf(event: unknown): number {
  return isDeferredEvent(event) ? event[DEFERRED].sizeFactor : 1;
}

/** A deferred event's builder, or undefined for a finished event. */
export function builderOf(event: unknown): EventBuilder | undefined {
  return isDeferredEvent(event) ? event[DEFERRED] : undefined;
}

/** The part of an event that is serialized to reach the function: a deferred event's input. */
export function serializedPart(event: unknown): unknown {
  return isDeferredEvent(event) ? event.input : event;
}

type BuildFunction = (input: unknown) => unknown;

/**
 * Build functions by builder: `require` resolves its argument on every call. A builder is one
 * object in the server (a module constant) and in a runtime host's thread (its table's entry); in a
 * worker thread each invocation's is a copy, and Node's module cache answers the `require`.
 */
const builders = new WeakMap<EventBuilder, BuildFunction>();

function build(builder: EventBuilder, input: unknown): unknown {
  let buildFunction = builders.get(builder);
  if (buildFunction === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    buildFunction = (require(builder.module) as Record<string, BuildFunction>)[builder.exportName];
    builders.set(builder, buildFunction);
  }
  return buildFunction(input);
}
