/**
 * Values of a deployed stack, for the local API's resolver (stack-environment.ts): the stack's
 * outputs (`--outputs-file`, the JSON `cdk deploy --outputs-file` writes, or `--from-stack`'s
 * DescribeStacks) and the physical ids of its resources (`--from-stack`'s ListStackResources).
 * An output whose `Value` is exactly a `Ref` or a `Fn::GetAtt` tells that reference's deployed value.
 */
import { isPlainObject } from '../../../outputs/cdk-free/json-data';

/** One deployed stack. */
export interface DeployedStackValues {
  readonly stackName: string;
  /** Output key → value. */
  readonly outputs: Readonly<Record<string, string>>;
  /** Logical id → physical id (what `Ref` gives for most resource types); empty from an outputs file. */
  readonly physicalIds: Readonly<Record<string, string>>;
  /** `AWS::AccountId`, `AWS::Region`, `AWS::StackId` of the deployed stack, when known (from its stack id). */
  readonly pseudo: Readonly<Record<string, string>>;
}

/** The deployed values the user passed. */
export interface DeployedValues {
  /** Where they come from, for messages: `--outputs-file outputs.json`, `--from-stack Backend`. */
  readonly source: string;
  readonly stacks: readonly DeployedStackValues[];
}

/** Deployed `Ref` and `Fn::GetAtt` values of one local stack. */
export interface DeployedReferences {
  readonly source: string;
  /** Logical id → deployed `Ref` value. */
  readonly refs: ReadonlyMap<string, string>;
  /** `<logical id>.<attribute>` → deployed value. */
  readonly attributes: ReadonlyMap<string, string>;
  readonly pseudo: Readonly<Record<string, string>>;
}

/**
 * The deployed stack of a local one: the one of the same stack name (or artifact id); else, when
 * the user passed one deployed stack and reads one local stack, that one (a sandbox of a
 * development copy of the stack reads the deployed one under another name).
 */
export function deployedStackOf(
  deployed: DeployedValues | undefined, stackName: string, artifactId: string, localStackCount: number,
): DeployedStackValues | undefined {
  if (deployed === undefined) {
    return undefined;
  }
  const named = deployed.stacks.find((s) => s.stackName === stackName) ?? deployed.stacks.find((s) => s.stackName === artifactId);
  if (named !== undefined) {
    return named;
  }
  return deployed.stacks.length === 1 && localStackCount === 1 ? deployed.stacks[0] : undefined;
}

/** The deployed references of one local stack, when the user passed its deployed values. */
export function referencesOfStack(
  deployed: DeployedValues | undefined, stack: { readonly stackName: string; readonly artifactId: string; readonly template: Record<string, any> },
  localStackCount: number,
): DeployedReferences | undefined {
  const found = deployedStackOf(deployed, stack.stackName, stack.artifactId, localStackCount);
  return found === undefined ? undefined : deployedReferences(deployed!.source, found, stack.template);
}

/** What one deployed stack tells of the references of `template`. */
export function deployedReferences(source: string, stack: DeployedStackValues, template: Record<string, any>): DeployedReferences {
  const refs = new Map<string, string>(Object.entries(stack.physicalIds));
  const attributes = new Map<string, string>();
  for (const [key, output] of Object.entries<any>(template.Outputs ?? {})) {
    if (!Object.hasOwn(stack.outputs, key)) {
      continue;
    }
    const value = stack.outputs[key];
    const reference = plainReference(output?.Value);
    if (reference === undefined) {
      continue;
    }
    if (reference.attribute === undefined) {
      refs.set(reference.logicalId, value);
    } else {
      attributes.set(`${reference.logicalId}.${reference.attribute}`, value);
    }
  }
  return { source, refs, attributes, pseudo: stack.pseudo };
}

/** `{ Ref: X }` or `{ Fn::GetAtt: [X, A] }` (or `"X.A"`) as it is, nothing around it. */
function plainReference(value: unknown): { logicalId: string; attribute?: string } | undefined {
  if (!isPlainObject(value) || Object.keys(value).length !== 1) {
    return undefined;
  }
  if (typeof value.Ref === 'string') {
    return value.Ref.startsWith('AWS::') ? undefined : { logicalId: value.Ref };
  }
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt) && getAtt.length === 2 && typeof getAtt[0] === 'string' && typeof getAtt[1] === 'string') {
    return { logicalId: getAtt[0], attribute: getAtt[1] };
  }
  if (typeof getAtt === 'string' && getAtt.includes('.')) {
    const dot = getAtt.indexOf('.');
    return { logicalId: getAtt.slice(0, dot), attribute: getAtt.slice(dot + 1) };
  }
  return undefined;
}

/** `AWS::AccountId`, `AWS::Region` and `AWS::StackId` from a stack id (`arn:aws:cloudformation:<region>:<account>:stack/...`). */
export function pseudoOfStackId(stackId: string): Record<string, string> {
  const m = /^arn:([^:]+):cloudformation:([^:]+):(\d{12}):stack\//.exec(stackId);
  return m === null ? {} : { 'AWS::Partition': m[1], 'AWS::Region': m[2], 'AWS::AccountId': m[3], 'AWS::StackId': stackId };
}
