/**
 * velocityjs's renderer with API Gateway's limits and local bounds (template-limits.ts): a
 * `#foreach` stops after 1,000 iterations, a range is walked, never built, by a `#foreach`, a
 * string the template builds may not pass the 10 MB payload limit, and the evaluation stops at
 * its deadline. Each bound is checked where velocityjs builds the value, so memory stays bounded
 * while the template runs, not only once it is done.
 */
import type * as Velocity from 'velocityjs';
import { outputTooLarge, pastDeadline, TemplateError } from './template-error';
import { MAX_FOREACH_ITERATIONS, MAX_RANGE_ELEMENTS, MAX_TEMPLATE_OUTPUT_BYTES } from './template-limits';

type Ast = any;

/** What a `#foreach` walks: a list, a map's values, or a range computed element by element. */
interface Walkable {
  readonly length: number;
  at(index: number): unknown;
}

/** `[first..last]`, ascending or descending, as Velocity counts it (both ends included). */
class IntegerRange implements Walkable {
  public readonly length: number;
  private readonly step: number;

  constructor(private readonly first: number, last: number) {
    this.length = Math.abs(last - first) + 1;
    this.step = first <= last ? 1 : -1;
  }

  at(index: number): number {
    return this.first + index * this.step;
  }
}

/** The checks a render makes; one per render. */
export interface RenderBounds {
  /** `Date.now()` past which the evaluation stops. */
  readonly deadline: number;
  /** Steps between two reads of the clock. @default 256 */
  readonly stepsPerClockRead?: number;
  /** What is thrown at the deadline. @default the template's deadline error */
  readonly overrun?: () => Error;
}

/** A renderer class bound to the velocityjs module it extends. */
export type BoundedCompileClass = new (asts: ReturnType<typeof Velocity.parse>, config: object, bounds: RenderBounds) => Velocity.Compile;

/** The deadline is read every this many steps (a step: a list rendered, a loop iteration). */
const STEPS_PER_CLOCK_READ = 256;

let loopIds = 0;

/** A string the template builds may not be longer than the payload it could ever be part of. */
function checkSize(value: unknown): void {
  // A character is at least one byte of UTF-8: longer is surely too large.
  if (typeof value === 'string' && value.length > MAX_TEMPLATE_OUTPUT_BYTES) {
    throw outputTooLarge();
  }
}

/** A range's end as Velocity takes it: an integer literal or a reference's value. */
function rangeEnd(value: unknown): number {
  const n = typeof value === 'string' ? parseInt(value, 10) : Number(value);
  return Number.isInteger(n) ? n : NaN;
}

/** The renderer class for this velocityjs module. */
export function boundedCompileClass(velocity: typeof Velocity): BoundedCompileClass {
  const base = velocity.Compile.prototype as any;

  class BoundedCompile extends velocity.Compile {
    private steps = 0;

    constructor(asts: ReturnType<typeof Velocity.parse>, config: object, private readonly bounds: RenderBounds) {
      super(asts, config as any);
    }

    renderAstList(asts?: Ast[], contextId?: string): string {
      this.step();
      const text = super.renderAstList(asts, contextId);
      checkSize(text);
      return text;
    }

    protected getExpression(ast: Ast): string {
      const value = super.getExpression(ast);
      checkSize(value);
      return value;
    }

    /** A method's result (`$s.concat($s)`, `$s.repeat(9)`, `$s.replace('a', $long)`). */
    getPropMethod(property: Ast, baseRef: unknown, ast: Ast): unknown {
      const value = base.getPropMethod.call(this, property, baseRef, ast);
      checkSize(value);
      return value;
    }

    /** `[a..b]` as a value: a list, up to {@link MAX_RANGE_ELEMENTS} numbers. */
    getArray(literal: Ast): unknown {
      const range = this.rangeOf(literal);
      if (range !== undefined && range.length > MAX_RANGE_ELEMENTS) {
        throw new TemplateError('configuration',
          `the range [${range.at(0)}..${range.at(range.length - 1)}] has ${range.length} numbers; a range used as a value is built up to ${MAX_RANGE_ELEMENTS} (a #foreach walks any range without building it)`);
      }
      return base.getArray.call(this, literal);
    }

    /** velocityjs's `#foreach`, walking at most {@link MAX_FOREACH_ITERATIONS} items, a range without building it. */
    getBlockEach(block: Ast[]): string {
      const ast = block[0];
      const from = this.rangeOf(ast.from) ?? this.getLiteral({ ...ast.from, pos: ast.pos });
      const items = walkable(from);
      if (items === undefined) {
        return '';
      }
      const body = block.slice(1);
      const local: Record<string, unknown> = { foreach: { count: 0, index: 0, hasNext: false }, velocityCount: 0 };
      const contextId = `foreach:bounded:${loopIds++}`;
      const state = this as any;
      let text = '';
      const count = Math.min(items.length, MAX_FOREACH_ITERATIONS);
      for (let i = 0; i < count && !state.runState.break; i++) {
        this.step();
        local[ast.to] = items.at(i);
        local.foreach = { count: i + 1, index: i, hasNext: i + 1 < items.length };
        local.velocityCount = i + 1;
        state.local[contextId] = local;
        text += this.renderAstList(body, contextId);
        checkSize(text);
      }
      // As velocityjs: the loop's scope is closed when it walked a list (or a range).
      if (from instanceof IntegerRange ? from.length > 0 : Boolean((from as any)?.length)) {
        state.runState.break = false;
        state.local[contextId] = {};
        state.conditions.shift();
        state.contextId = state.conditions[0] || '';
      }
      return text;
    }

    /** The range an array literal denotes; undefined when it is a plain list or its ends are not integers. */
    private rangeOf(literal: Ast): IntegerRange | undefined {
      if (literal?.type !== 'array' || literal.isRange !== true) {
        return undefined;
      }
      const [first, last] = (literal.value as Ast[]).map((end) =>
        rangeEnd(typeof end === 'string' || typeof end === 'number' ? end : this.getReferences(end)));
      return Number.isNaN(first) || Number.isNaN(last) ? undefined : new IntegerRange(first, last);
    }

    /** One unit of work: every {@link STEPS_PER_CLOCK_READ} steps, the deadline is checked. */
    private step(): void {
      if (++this.steps % (this.bounds.stepsPerClockRead ?? STEPS_PER_CLOCK_READ) === 0 && Date.now() > this.bounds.deadline) {
        throw this.bounds.overrun?.() ?? pastDeadline();
      }
    }
  }
  return BoundedCompile as unknown as BoundedCompileClass;
}

function walkable(from: unknown): Walkable | undefined {
  if (from instanceof IntegerRange) {
    return from;
  }
  const type = Object.prototype.toString.call(from);
  if (!from || (type !== '[object Array]' && type !== '[object Object]')) {
    return undefined;
  }
  const list = Array.isArray(from) ? from : Object.values(from as object);
  return { length: list.length, at: (i) => list[i] };
}
