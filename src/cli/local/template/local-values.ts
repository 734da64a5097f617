/**
 * What the readers of a stack resolve its template values with (made by stack-environment.ts):
 * what is known, and text with stand-ins where nothing is known.
 */
import type { IntrinsicEnvironment } from './intrinsics';
import type { StandIn } from '../model/stand-in';

/** An expression as text: its value and the stand-ins in it, or why it has none. */
export type TextValue =
  | { readonly value: string; readonly standIns: readonly StandIn[] }
  | { readonly value: undefined; readonly problem: string };

/** A template's map of expressions (`RequestTemplates`) as texts. */
export interface TextMap {
  /** Key → text, for every entry that evaluates (own keys: `__proto__` is a key). */
  readonly values: Record<string, string>;
  readonly standIns: readonly StandIn[];
  /** Each entry that does not evaluate, and why. */
  readonly problems: ReadonlyArray<{ readonly key: string; readonly problem: string }>;
}

/** What the readers of one stack resolve its template values with. */
export interface LocalValues {
  /** Tiers 1 to 3: never a stand-in; unknown references are unknown. */
  readonly known: IntrinsicEnvironment;
  /** An expression as text, stand-ins where nothing better is known. */
  text(expression: unknown): TextValue;
  /** Each entry of a map of expressions as text (a non-object: no entries). */
  texts(map: unknown): TextMap;
}
