/**
 * Checks a model introspection document for the shape the data client reads when it builds its
 * typed model operations: `version` 1; `models` with `fields`, `pluralName` and `primaryKeyInfo`;
 * `enums` with `values`; `nonModels` with `fields`; every field with a `type` that is a scalar
 * name or names a model, enum or non-model of the document; custom `queries`, `mutations` and
 * `subscriptions` like fields, with `arguments`. Each problem names the model and field.
 */
import { isPlainObject } from '../../outputs/cdk-free/json-data';

/** The introspection version the data client reads. */
export const INTROSPECTION_VERSION = 1;

type Json = Record<string, unknown>;

/** Every problem found, one line each (empty when the document is usable). */
export function introspectionProblems(document: unknown): string[] {
  const problems: string[] = [];
  if (!isPlainObject(document)) {
    return [`must be an object with version, models, enums and nonModels (got ${describe(document)})`];
  }
  if (document.version !== INTROSPECTION_VERSION) {
    problems.push(`version must be ${INTROSPECTION_VERSION} (got ${describe(document.version)})`);
  }
  const models = namedMap(document, 'models', problems);
  const enums = namedMap(document, 'enums', problems);
  const nonModels = namedMap(document, 'nonModels', problems);
  const names = { model: new Set(Object.keys(models)), enum: new Set(Object.keys(enums)), nonModel: new Set(Object.keys(nonModels)) };

  for (const [name, model] of Object.entries(models)) {
    const where = `model ${name}`;
    if (!checkNamed(model, name, where, problems)) {
      continue;
    }
    if (typeof model.pluralName !== 'string' || model.pluralName === '') {
      problems.push(`${where}: pluralName must be a non-empty string (got ${describe(model.pluralName)})`);
    }
    checkPrimaryKey(model, where, problems);
    checkFields(model.fields, where, names, problems);
  }
  for (const [name, value] of Object.entries(enums)) {
    const where = `enum ${name}`;
    if (checkNamed(value, name, where, problems) && (!Array.isArray(value.values) || !value.values.every((v) => typeof v === 'string'))) {
      problems.push(`${where}: values must be a list of strings (got ${describe(value.values)})`);
    }
  }
  for (const [name, value] of Object.entries(nonModels)) {
    const where = `non-model ${name}`;
    if (checkNamed(value, name, where, problems)) {
      checkFields(value.fields, where, names, problems);
    }
  }
  for (const kind of ['queries', 'mutations', 'subscriptions']) {
    if (document[kind] === undefined) {
      continue;
    }
    for (const [name, operation] of Object.entries(namedMap(document, kind, problems))) {
      const where = `${kind.replace(/ies$/, 'y').replace(/s$/, '')} ${name}`;
      if (checkNamed(operation, name, where, problems)) {
        checkFieldType(operation, where, names, problems);
        if (operation.arguments !== undefined) {
          checkFields(operation.arguments, where, names, problems, 'argument');
        }
      }
    }
  }
  return problems;
}

type KnownNames = Record<'model' | 'enum' | 'nonModel', ReadonlySet<string>>;

function namedMap(document: Json, key: string, problems: string[]): Record<string, unknown> {
  const value = document[key];
  if (!isPlainObject(value)) {
    problems.push(`${key} must be an object of ${key} by name (got ${describe(value)})`);
    return {};
  }
  return value;
}

/** Checks that `value` is an object whose `name` is its key. */
function checkNamed(value: unknown, name: string, where: string, problems: string[]): value is Json {
  if (!isPlainObject(value)) {
    problems.push(`${where}: must be an object (got ${describe(value)})`);
    return false;
  }
  if (value.name !== name) {
    problems.push(`${where}: name must be "${name}", its key (got ${describe(value.name)})`);
  }
  return true;
}

function checkPrimaryKey(model: Json, where: string, problems: string[]): void {
  const key = model.primaryKeyInfo;
  if (!isPlainObject(key) || typeof key.primaryKeyFieldName !== 'string' || !Array.isArray(key.sortKeyFieldNames)) {
    problems.push(`${where}: primaryKeyInfo must be { isCustomPrimaryKey, primaryKeyFieldName, sortKeyFieldNames[] } (got ${describe(key)})`);
    return;
  }
  const fields = isPlainObject(model.fields) ? model.fields : {};
  for (const field of [key.primaryKeyFieldName, ...key.sortKeyFieldNames]) {
    if (typeof field !== 'string' || !Object.hasOwn(fields, field)) {
      problems.push(`${where}: primaryKeyInfo names ${describe(field)}, which is not one of its fields`);
    }
  }
}

function checkFields(fields: unknown, where: string, names: KnownNames, problems: string[], kind = 'field'): void {
  if (!isPlainObject(fields)) {
    problems.push(`${where}: ${kind === 'field' ? 'fields' : 'arguments'} must be an object of ${kind}s by name (got ${describe(fields)})`);
    return;
  }
  for (const [name, field] of Object.entries(fields)) {
    const at = `${where}, ${kind} ${name}`;
    if (checkNamed(field, name, at, problems)) {
      checkFieldType(field, at, names, problems);
    }
  }
}

/** `type`, `isArray` and `isRequired` of a field, argument or custom operation. */
function checkFieldType(field: Json, at: string, names: KnownNames, problems: string[]): void {
  for (const flag of ['isArray', 'isRequired']) {
    if (typeof field[flag] !== 'boolean') {
      problems.push(`${at}: ${flag} must be true or false (got ${describe(field[flag])})`);
    }
  }
  const type = field.type;
  if (typeof type === 'string' && type !== '') {
    return;
  }
  const reference = isPlainObject(type) ? Object.entries(type) : [];
  const [kind, target] = reference.length === 1 ? reference[0] : [undefined, undefined];
  if (kind === 'model' || kind === 'enum' || kind === 'nonModel') {
    if (typeof target !== 'string' || !names[kind].has(target)) {
      problems.push(`${at}: type ${describe(type)} names no ${kind} of the document (${kind}s: ${[...names[kind]].join(', ') || 'none'})`);
    }
    return;
  }
  if (kind === 'input') {
    return;
  }
  problems.push(`${at}: type must be a scalar name or one of { model | enum | nonModel | input: NAME } (got ${describe(type)})`);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
