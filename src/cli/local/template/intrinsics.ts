/**
 * A small evaluator of CloudFormation intrinsic functions against a local environment: enough to
 * turn the synthesized template's expressions (a function's environment variables, the stack
 * outputs that carry vendor_outputs.json values) into what they would be locally.
 *
 * It never guesses: a reference it cannot answer makes the whole expression unresolvable
 * ({@link Unresolvable}), and the caller decides what to do (keep the marker, keep the JSON).
 */
import { isPlainObject } from '../../../outputs/cdk-free/json-data';

/** Thrown when an expression refers to something the environment cannot answer. */
export class Unresolvable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Unresolvable';
  }
}

/** What `Ref` and `Fn::GetAtt` evaluate to locally. */
export interface IntrinsicEnvironment {
  /** `AWS::Region` and friends. */
  readonly pseudo: Readonly<Record<string, string>>;
  /** Value of `{ Ref: logicalId }`, or undefined when unknown. */
  ref(logicalId: string): string | undefined;
  /** Value of `{ Fn::GetAtt: [logicalId, attribute] }`, or undefined when unknown. */
  getAtt(logicalId: string, attribute: string): string | undefined;
  /** Value of `{ Fn::ImportValue: name }` (another stack's export), or undefined when unknown. */
  importValue?(exportName: string): string | undefined;
  /** The template's condition `name` (`Fn::If`, `Condition`), or undefined when unknown. */
  condition?(name: string): boolean | undefined;
  /** `Mappings[map][topKey][secondKey]` (`Fn::FindInMap`), or undefined when the template has none. */
  mapping?(map: string, topKey: string, secondKey: string): unknown;
}

/** The pseudo parameters of a local stack. */
export function pseudoParameters(region: string, stackName: string, accountId = '123456789012'): Record<string, string> {
  return {
    'AWS::Region': region,
    'AWS::URLSuffix': region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com',
    'AWS::Partition': region.startsWith('cn-') ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws',
    'AWS::AccountId': accountId,
    'AWS::StackName': stackName,
    'AWS::StackId': `arn:aws:cloudformation:${region}:${accountId}:stack/${stackName}/00000000-0000-0000-0000-000000000000`,
  };
}

/**
 * Evaluates an expression. Strings, numbers and booleans are returned as they are; arrays element
 * by element; an object with one `Ref` / `Fn::*` key is evaluated.
 *
 * @throws Unresolvable when any part refers to something `env` does not know
 */
export function evaluate(expression: unknown, env: IntrinsicEnvironment): unknown {
  if (expression === null || typeof expression !== 'object') {
    return expression;
  }
  if (Array.isArray(expression)) {
    return expression.map((e) => evaluate(e, env));
  }
  const keys = Object.keys(expression);
  const object = expression as Record<string, unknown>;
  // `{ Condition: name }` is an intrinsic only inside conditions, where its value is a name.
  const isCondition = keys.length === 1 && keys[0] === 'Condition' && typeof (expression as Record<string, unknown>).Condition === 'string';
  if (keys.length !== 1 || !(keys[0] === 'Ref' || keys[0].startsWith('Fn::') || isCondition)) {
    // Prototype-free: a template key named `__proto__` stays a key.
    const out: Record<string, unknown> = Object.create(null);
    for (const key of keys) {
      out[key] = evaluate(object[key], env);
    }
    return out;
  }
  const name = keys[0];
  const arg = object[name];
  switch (name) {
    case 'Ref':
      return ref(String(arg), env);
    case 'Fn::GetAtt': {
      const [logicalId, attribute] = Array.isArray(arg) ? arg.map(String) : String(arg).split(/\.(.*)/s);
      return getAtt(logicalId, attribute, env);
    }
    case 'Fn::Join': {
      const [delimiter, list] = expectArray(arg, 2, name);
      const items = evaluate(list, env);
      if (!Array.isArray(items)) {
        throw new Unresolvable('Fn::Join needs a list');
      }
      return items.map((item) => asString(item, name)).join(String(delimiter));
    }
    case 'Fn::Sub':
      return sub(arg, env);
    case 'Fn::Select': {
      const [index, list] = expectArray(arg, 2, name);
      const items = evaluate(list, env);
      const i = Number(evaluate(index, env));
      if (!Array.isArray(items) || !Number.isInteger(i) || i < 0 || i >= items.length) {
        throw new Unresolvable(`Fn::Select index ${i} is out of range`);
      }
      return items[i];
    }
    case 'Fn::Split': {
      const [delimiter, source] = expectArray(arg, 2, name);
      return asString(evaluate(source, env), name).split(String(delimiter));
    }
    case 'Fn::Base64':
      return Buffer.from(asString(evaluate(arg, env), name), 'utf8').toString('base64');
    case 'Fn::If': {
      const [conditionName, whenTrue, whenFalse] = expectArray(arg, 3, name);
      return evaluate(conditionOf(String(conditionName), env) ? whenTrue : whenFalse, env);
    }
    case 'Condition':
      return conditionOf(String(arg), env);
    case 'Fn::Equals': {
      const [left, right] = expectArray(arg, 2, name);
      return JSON.stringify(evaluate(left, env)) === JSON.stringify(evaluate(right, env));
    }
    case 'Fn::Not':
      return !asBoolean(evaluate(expectArray(arg, 1, name)[0], env), name);
    case 'Fn::And':
    case 'Fn::Or': {
      const values = (Array.isArray(arg) ? arg : []).map((c) => asBoolean(evaluate(c, env), name));
      if (values.length < 2) {
        throw new Unresolvable(`${name} needs 2 to 10 conditions`);
      }
      return name === 'Fn::And' ? values.every(Boolean) : values.some(Boolean);
    }
    case 'Fn::FindInMap': {
      const [map, top, second] = expectArray(arg, 3, name).map((part) => asString(evaluate(part, env), name));
      const value = env.mapping?.(map, top, second);
      if (value === undefined) {
        throw new Unresolvable(`Fn::FindInMap ${map}.${top}.${second} is not in the template`);
      }
      return value;
    }
    case 'Fn::GetAZs': {
      // The zone names of a region (`<region>a`, `b`, `c`): which zones an account has is known only in the cloud.
      const given = asString(evaluate(arg, env), name);
      const region = given === '' ? env.pseudo['AWS::Region'] : given;
      return ['a', 'b', 'c'].map((zone) => `${region}${zone}`);
    }
    case 'Fn::ImportValue': {
      const exportName = asString(evaluate(arg, env), name);
      const value = env.importValue?.(exportName);
      if (value === undefined) {
        throw new Unresolvable(`Fn::ImportValue ${exportName} is not known locally`);
      }
      return value;
    }
    default:
      throw new Unresolvable(`${name} is not evaluated locally`);
  }
}

/** Evaluates to a string, or returns undefined when the expression is unresolvable. */
export function tryEvaluateString(expression: unknown, env: IntrinsicEnvironment): string | undefined {
  try {
    const value = evaluate(expression, env);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
  } catch (error) {
    if (error instanceof Unresolvable) {
      return undefined;
    }
    throw error;
  }
}

function ref(logicalId: string, env: IntrinsicEnvironment): string {
  if (logicalId === 'AWS::NoValue') {
    throw new Unresolvable('AWS::NoValue');
  }
  // Own keys only: `{ Ref: "constructor" }` is an unknown reference, not Object's constructor.
  const value = Object.hasOwn(env.pseudo, logicalId) ? env.pseudo[logicalId] : env.ref(logicalId);
  if (value === undefined) {
    throw new Unresolvable(`Ref ${logicalId} is not known locally`);
  }
  return value;
}

function getAtt(logicalId: string, attribute: string, env: IntrinsicEnvironment): string {
  const value = env.getAtt(logicalId, attribute);
  if (value === undefined) {
    throw new Unresolvable(`Fn::GetAtt ${logicalId}.${attribute} is not known locally`);
  }
  return value;
}

function sub(arg: unknown, env: IntrinsicEnvironment): string {
  const [template, variables] = Array.isArray(arg) ? [arg[0], arg[1] ?? {}] : [arg, {}];
  if (typeof template !== 'string') {
    throw new Unresolvable('Fn::Sub needs a string');
  }
  if (!isPlainObject(variables)) {
    throw new Unresolvable('Fn::Sub variables must be an object');
  }
  return template.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name.startsWith('!')) {
      return `\${${name.slice(1)}}`;
    }
    if (Object.hasOwn(variables, name)) {
      return asString(evaluate(variables[name], env), 'Fn::Sub');
    }
    const dot = name.indexOf('.');
    if (dot > 0 && !name.startsWith('AWS::')) {
      return getAtt(name.slice(0, dot), name.slice(dot + 1), env);
    }
    return whole === '' ? whole : ref(name, env);
  });
}

function conditionOf(conditionName: string, env: IntrinsicEnvironment): boolean {
  const value = env.condition?.(conditionName);
  if (value === undefined) {
    throw new Unresolvable(`condition ${conditionName} is not known locally`);
  }
  return value;
}

function asBoolean(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') {
    return value;
  }
  if (value === 'true' || value === 'false') {
    return value === 'true';
  }
  throw new Unresolvable(`${name} needs conditions`);
}

function expectArray(arg: unknown, length: number, name: string): unknown[] {
  if (!Array.isArray(arg) || arg.length !== length) {
    throw new Unresolvable(`${name} needs ${length} arguments`);
  }
  return arg;
}

function asString(value: unknown, name: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  throw new Unresolvable(`${name} needs strings`);
}
