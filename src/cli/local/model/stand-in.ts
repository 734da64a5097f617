/**
 * A value the local API made up for a reference it could not know (a table's generated name, a
 * user pool's id): neither deployed (`--outputs-file`, `--from-stack`) nor determined by the
 * template. The start-up listing names each one where it is used, so the user knows what to pass.
 */
export interface StandIn {
  /** The reference as the template writes it: `Ref Items5C12978B`, `Fn::GetAtt Queue.Arn`. */
  readonly reference: string;
  /** What is used for it locally. */
  readonly value: string;
}

/** `stand-in "X" for Ref Y`, for the listing. */
export function describeStandIn(standIn: StandIn): string {
  return `stand-in "${standIn.value}" for ${standIn.reference}`;
}

/** The stand-ins of several values, each once, in the order first met. */
export function distinctStandIns(lists: ReadonlyArray<readonly StandIn[]>): StandIn[] {
  const seen = new Map<string, StandIn>();
  for (const standIn of lists.flat()) {
    if (!seen.has(standIn.reference)) {
      seen.set(standIn.reference, standIn);
    }
  }
  return [...seen.values()];
}
