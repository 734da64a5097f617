/**
 * `publishToParameter`: at deploy time, CloudFormation itself writes the final document into an
 * SSM String parameter (aws-cdk-lib's StringParameter), its deploy-time values filled in by
 * `Fn::Join`. The tier follows the document's size; a document no tier can hold fails the synth.
 */
import { Annotations, Lazy, Stack } from 'aws-cdk-lib';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { IConstruct } from 'constructs';
import { knownLength, KnownLength, publishedText } from './published-text';
import { freeTextValues } from './unescaped-values';
import { OutputsCollector } from '../collector';

/** Longest value of a standard parameter, in characters. */
export const STANDARD_TIER_MAX = 4096;
/** Longest value of an advanced parameter, in characters. */
export const ADVANCED_TIER_MAX = 8192;

/** Checks a parameter name against Parameter Store's rules; throws naming `where`. */
export function checkParameterName(name: string, where: string): void {
  const bare = typeof name === 'string' ? name.replace(/^\//, '') : '';
  const problem = typeof name !== 'string' || name.length === 0 ? 'is empty'
    : !/^[A-Za-z0-9_.\-/]+$/.test(name) ? 'holds a character other than letters, digits and _ . - /'
      : /^(aws|ssm)/i.test(bare) ? "starts with 'aws' or 'ssm', which Parameter Store reserves"
        : name.length > 1011 ? 'is longer than 1011 characters'
          : name.includes('/') && !name.startsWith('/') ? 'has a path without its leading /'
            : undefined;
  if (problem !== undefined) {
    throw new Error(`${where}: publishToParameter: the parameter name ${JSON.stringify(name)} ${problem}; give a name such as '/my-app/main/vendor_outputs'`);
  }
}

/** Creates the String parameter that holds the document. */
export function createParameterPublication(
  collector: OutputsCollector, scope: IConstruct, id: string, parameterName: string, tier: ssm.ParameterTier | undefined,
): void {
  const stack = Stack.of(collector);
  const text = Lazy.string({ produce: () => publishedText(collector) });
  const parameter = new ssm.StringParameter(scope, id, {
    parameterName,
    stringValue: text,
    description: `vendor_outputs.json of stack ${stack.stackName}, published by cdk-vendor-outputs`,
  });
  const length = () => knownLength(stack, text);
  (parameter.node.defaultChild as ssm.CfnParameter).tier = tier ?? Lazy.string({ produce: () => tierFor(length()) });
  // Checked once the document is complete: validation runs after every aspect, before synthesis.
  parameter.node.addValidation({
    validate: () => {
      warnFreeText(parameter, stack, collector);
      return sizeProblems(length(), tier, parameterName);
    },
  });
}

/** Warns, at synth, about deploy-time values that CloudFormation inserts unescaped and that may hold any text. */
function warnFreeText(parameter: ssm.StringParameter, stack: Stack, collector: OutputsCollector): void {
  for (const value of freeTextValues(stack, collector)) {
    Annotations.of(parameter).addWarningV2('cdk-vendor-outputs:unescaped-parameter-value',
      `${value.pointer} comes from ${value.from}, which CloudFormation writes into the SSM parameter without JSON escaping: `
      + 'a value holding " or \\ or a control character makes the parameter invalid JSON. Publish with publishToBucket (escaped), or keep such values out of the document.');
  }
}

/**
 * The cheapest tier that holds the document: standard when it fits, advanced when it does not,
 * and intelligent-tiering (Parameter Store picks at deploy) when deploy-time values may tip it over.
 */
export function tierFor(length: KnownLength): ssm.ParameterTier {
  if (length.characters > STANDARD_TIER_MAX) {
    return ssm.ParameterTier.ADVANCED;
  }
  return length.pending ? ssm.ParameterTier.INTELLIGENT_TIERING : ssm.ParameterTier.STANDARD;
}

function sizeProblems(length: KnownLength, tier: ssm.ParameterTier | undefined, parameterName: string): string[] {
  const limit = tier === ssm.ParameterTier.STANDARD ? STANDARD_TIER_MAX : ADVANCED_TIER_MAX;
  if (length.characters <= limit) {
    return [];
  }
  const size = `${length.characters} characters${length.pending ? ' before its deploy-time values' : ''}`;
  const allowed = tier === ssm.ParameterTier.STANDARD
    ? `a standard parameter holds at most ${STANDARD_TIER_MAX}; leave the tier to the library or choose ADVANCED (${ADVANCED_TIER_MAX})`
    : `a parameter holds at most ${ADVANCED_TIER_MAX} (advanced tier); publish it with publishToBucket instead`;
  return [`publishToParameter(${JSON.stringify(parameterName)}): the document is ${size}, too large for Parameter Store: ${allowed}`];
}
