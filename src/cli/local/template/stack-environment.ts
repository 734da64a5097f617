/**
 * The one resolver of a stack's template values for local use. A `Ref` or `Fn::GetAtt` is answered,
 * in this order, by:
 *  1. what the local API itself is: a REST API's local id (its logical id), a stage's name, a REST
 *     API's root resource, a function's local name and ARN when the template names no other;
 *  2. deployed values, when the user passed them (`--outputs-file`, `--from-stack`: deployed-values.ts);
 *  3. what the template determines: a parameter's default, a resource's name property and the values
 *     CloudFormation derives from it (resource-values.ts), the pseudo parameters;
 *  4. else, for text (templates, URIs, parameters, environment variables), a stand-in derived from
 *     the logical id, which the caller lists so the user knows what to pass.
 * `known` stops after 3: a reader that must know whether a value is real (an API key's value, a
 * Cognito pool) uses it and treats an unknown value as it did before.
 */
import type { DeployedReferences } from './deployed-values';
import { functionNameOf } from './function-name';
import { evaluate, IntrinsicEnvironment, pseudoParameters, Unresolvable } from './intrinsics';
import type { LocalValues, TextMap, TextValue } from './local-values';
import { attributeOfName, nameOfRef, nameProperty, refOfName, standInName, ValuePlace } from './resource-values';
import { NO_EXPORTS, StackExports } from './stack-exports';
import type { StackArtifact } from './stack-template';
import type { StandIn } from '../model/stand-in';

export type { LocalValues, TextMap, TextValue } from './local-values';

/** One answer of the resolver: the value, and the stand-in it is (if it is one). */
interface Answer {
  readonly value: string;
  readonly standIn: boolean;
}

/**
 * The resolver of one stack. `deployed`: what the user passed of the deployed stack; `exports`: the
 * other stacks' exports, for `Fn::ImportValue` (stack-exports.ts).
 */
export function stackEnvironment(
  artifact: StackArtifact, template: Record<string, any>, deployed?: DeployedReferences, exports: StackExports = NO_EXPORTS,
): LocalValues {
  const resolver = new StackResolver(artifact, template, deployed, exports);
  const known: IntrinsicEnvironment = {
    pseudo: resolver.pseudo,
    ref: (id) => knownValue(resolver.ref(id)),
    getAtt: (id, attribute) => knownValue(resolver.getAtt(id, attribute)),
    importValue: (name) => exports.known(name),
    condition: (name) => resolver.condition(name),
    mapping: (map, top, second) => resolver.mapping(map, top, second),
  };
  const text = (expression: unknown): TextValue => resolver.text(expression);
  return {
    known,
    text,
    texts: (map) => textMap(map, text),
  };
}

/**
 * Values from an environment that knows what it knows and makes up nothing (no stand-ins): for a
 * reader given only an environment, and for tests.
 */
export function valuesOf(known: IntrinsicEnvironment): LocalValues {
  const text = (expression: unknown): TextValue => evaluateText(expression, known);
  return { known, text, texts: (map) => textMap(map, text) };
}

function evaluateText(expression: unknown, env: IntrinsicEnvironment, standIns: readonly StandIn[] = []): TextValue {
  try {
    const value = evaluate(expression, env);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      return { value: String(value), standIns };
    }
    return { value: undefined, problem: `${JSON.stringify(expression)} is not a text value` };
  } catch (error) {
    if (error instanceof Unresolvable) {
      return { value: undefined, problem: error.message };
    }
    throw error;
  }
}

function knownValue(answer: Answer | undefined): string | undefined {
  return answer === undefined || answer.standIn ? undefined : answer.value;
}

function textMap(map: unknown, text: (expression: unknown) => TextValue): TextMap {
  const values: Record<string, string> = {};
  const standIns: StandIn[] = [];
  const problems: Array<{ key: string; problem: string }> = [];
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    return { values, standIns, problems };
  }
  for (const [key, expression] of Object.entries(map)) {
    const result = text(expression);
    if (result.value === undefined) {
      problems.push({ key, problem: result.problem });
    } else {
      Object.defineProperty(values, key, { value: result.value, enumerable: true, writable: true, configurable: true });
      standIns.push(...result.standIns);
    }
  }
  return { values, standIns, problems };
}

class StackResolver {
  public readonly pseudo: Readonly<Record<string, string>>;
  private readonly resources: Record<string, any>;
  private readonly place: ValuePlace;
  /** Names being resolved (a name property that refers back to itself is unknown, not a loop). */
  private readonly naming = new Set<string>();

  constructor(
    private readonly artifact: StackArtifact, private readonly template: Record<string, any>,
    private readonly deployed: DeployedReferences | undefined, private readonly exports: StackExports,
  ) {
    this.resources = template.Resources ?? {};
    this.pseudo = { ...pseudoParameters(artifact.region, artifact.stackName), ...(deployed?.pseudo ?? {}) };
    this.place = {
      partition: this.pseudo['AWS::Partition'],
      region: this.pseudo['AWS::Region'],
      accountId: this.pseudo['AWS::AccountId'],
      urlSuffix: this.pseudo['AWS::URLSuffix'],
    };
  }

  /** `expression` evaluated with stand-ins, recording each one used. */
  public text(expression: unknown): TextValue {
    const used: StandIn[] = [];
    const record = (reference: string, answer: Answer | undefined): string | undefined => {
      if (answer?.standIn === true && !used.some((u) => u.reference === reference)) {
        used.push({ reference, value: answer.value });
      }
      return answer?.value;
    };
    const env: IntrinsicEnvironment = {
      pseudo: this.pseudo,
      ref: (id) => record(`Ref ${id}`, this.ref(id)),
      getAtt: (id, attribute) => record(`Fn::GetAtt ${id}.${attribute}`, this.getAtt(id, attribute)),
      importValue: (name) => {
        const imported = this.exports.text(name);
        if (imported?.value === undefined) {
          return undefined;
        }
        for (const standIn of imported.standIns) {
          if (!used.some((u) => u.reference === standIn.reference)) {
            used.push(standIn);
          }
        }
        return imported.value;
      },
      condition: (name) => this.condition(name),
      mapping: (map, top, second) => this.mapping(map, top, second),
    };
    return evaluateText(expression, env, used);
  }

  /** A condition of the template, evaluated with what is known; undefined when it cannot be (or refers to itself). */
  public condition(name: string): boolean | undefined {
    const conditions = this.template.Conditions ?? {};
    if (!Object.hasOwn(conditions, name) || this.naming.has(`Condition ${name}`)) {
      return undefined;
    }
    this.naming.add(`Condition ${name}`);
    try {
      const value = this.text(conditions[name]);
      return value.value === undefined || value.standIns.length > 0 ? undefined : value.value === 'true';
    } finally {
      this.naming.delete(`Condition ${name}`);
    }
  }

  /** `Mappings[map][top][second]`, own keys only. */
  public mapping(map: string, top: string, second: string): unknown {
    const maps = this.template.Mappings ?? {};
    const level1 = Object.hasOwn(maps, map) ? maps[map] : undefined;
    const level2 = level1 !== null && typeof level1 === 'object' && Object.hasOwn(level1, top) ? level1[top] : undefined;
    return level2 !== null && typeof level2 === 'object' && Object.hasOwn(level2, second) ? level2[second] : undefined;
  }

  public ref(id: string): Answer | undefined {
    const resource = Object.hasOwn(this.resources, id) ? this.resources[id] : undefined;
    const type: unknown = resource?.Type;
    if (type === 'AWS::ApiGateway::RestApi') {
      return { value: id, standIn: false };
    }
    if (type === 'AWS::ApiGateway::Stage' && typeof resource.Properties?.StageName === 'string') {
      return { value: resource.Properties.StageName, standIn: false };
    }
    const deployed = this.deployed?.refs.get(id);
    if (deployed !== undefined) {
      return { value: deployed, standIn: false };
    }
    const parameter = this.template.Parameters?.[id];
    if (resource === undefined && parameter !== undefined && Object.hasOwn(this.template.Parameters, id)) {
      return parameter.Default !== undefined ? { value: String(parameter.Default), standIn: false } : { value: `${id}-LOCAL`, standIn: true };
    }
    if (typeof type !== 'string') {
      return undefined;
    }
    const named = this.nameOf(id, type, resource);
    const properties = resource.Properties ?? {};
    const value = refOfName(type, named.value, this.place, properties);
    return value !== undefined
      ? { value, standIn: named.standIn }
      : { value: `${this.artifact.stackName}-${id}-LOCAL`, standIn: true };
  }

  public getAtt(id: string, attribute: string): Answer | undefined {
    const resource = Object.hasOwn(this.resources, id) ? this.resources[id] : undefined;
    const type: unknown = resource?.Type;
    if (type === 'AWS::ApiGateway::RestApi' && attribute === 'RootResourceId') {
      return { value: `${id}-root`, standIn: false };
    }
    const deployed = this.deployed?.attributes.get(`${id}.${attribute}`);
    if (deployed !== undefined) {
      return { value: deployed, standIn: false };
    }
    if (typeof type !== 'string') {
      return undefined;
    }
    const named = this.nameOf(id, type, resource);
    const value = attributeOfName(type, attribute, named.value, this.place, resource.Properties ?? {});
    return value !== undefined
      ? { value, standIn: named.standIn }
      : { value: `${this.artifact.stackName}-${id}-LOCAL-${attribute}`, standIn: true };
  }

  /** The resource's name: deployed, else its name property, else (a function) its local name, else a stand-in. */
  private nameOf(id: string, type: string, resource: any): Answer {
    const deployedRef = this.deployed?.refs.get(id);
    const deployedName = deployedRef === undefined ? undefined : nameOfRef(type, deployedRef);
    if (deployedName !== undefined) {
      return { value: deployedName, standIn: false };
    }
    const property = nameProperty(type);
    const expression = property === undefined ? undefined : resource.Properties?.[property];
    if (expression !== undefined && !this.naming.has(id)) {
      this.naming.add(id);
      try {
        const name = this.text(expression);
        if (name.value !== undefined && name.standIns.length === 0) {
          return { value: name.value, standIn: false };
        }
      } finally {
        this.naming.delete(id);
      }
    }
    if (type === 'AWS::Lambda::Function') {
      // A function runs here under its local name: that is what it is, not a stand-in.
      return { value: functionNameOf(this.artifact, id, resource), standIn: false };
    }
    return { value: standInName(type, this.artifact.stackName, id, resource.Properties ?? {}), standIn: true };
  }
}
