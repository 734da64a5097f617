/**
 * Reads the shape the schema gives to one position of the document, for the checks that
 * run before validation (unknown keys, token positions). No aws-cdk-lib here.
 */
import { VendorOutputsSchema } from './schema';

/** What the schema expects at one position. */
export type SchemaNode = Record<string, any>;

let rootSchema: SchemaNode | undefined;

/** The schema's root node, parsed once per process. */
export function schemaRoot(): SchemaNode {
  rootSchema ??= VendorOutputsSchema.document() as SchemaNode;
  return rootSchema;
}

const derefs = new WeakMap<SchemaNode, SchemaNode>();

/** Follows a local `$ref` (`#/$defs/...`) to the node it names. */
export function deref(node: SchemaNode): SchemaNode {
  if (typeof node.$ref !== 'string') {
    return node;
  }
  let target = derefs.get(node);
  if (target === undefined) {
    target = node;
    while (typeof target.$ref === 'string') {
      const path = target.$ref.replace(/^#\//, '').split('/');
      target = path.reduce((n: any, key: string) => n[key], schemaRoot()) as SchemaNode;
    }
    derefs.set(node, target);
  }
  return target;
}

/**
 * The schema of property `key` of an object node, looked up among the node's own properties
 * only: `constructor` or `toString` are not properties of any section.
 */
export function propertyOf(node: SchemaNode, key: string): SchemaNode | undefined {
  const properties = node.properties;
  return properties !== undefined && Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
}

/** An object with a closed list of keys (`properties`). */
export function isClosedObject(node: SchemaNode): boolean {
  return node.properties !== undefined;
}

/** An object whose keys are names chosen by the user (`geo.maps.items`). */
export function isNamedMap(node: SchemaNode): boolean {
  return node.properties === undefined && typeof node.additionalProperties === 'object' && !isFreeForm(node);
}

/**
 * The schema's check of API entries in `custom` (an object with `api_kind`): every other value
 * stays free-form, so `custom` is free-form for the checks before validation.
 */
const API_ENTRY_CHECK = '#/$defs/vendor_api_entry_if_marked';

/** A free-form object (`custom`, `data.model_introspection`): anything goes, keys unchanged. */
export function isFreeForm(node: SchemaNode): boolean {
  return node.type === 'object' && node.properties === undefined
    && (node.additionalProperties === undefined || node.additionalProperties?.$ref === API_ENTRY_CHECK);
}

/** A position that takes any string: the only kind a deploy-time token may fill. */
export function isPlainString(node: SchemaNode): boolean {
  return node.type === 'string' && node.enum === undefined && node.const === undefined;
}

/** Says what a position allows, for messages. */
export function describeAllowed(node: SchemaNode): string {
  if (node.enum) {
    return `one of ${node.enum.join(', ')}`;
  }
  if (node.const !== undefined) {
    return `exactly ${JSON.stringify(node.const)}`;
  }
  if (node.type === 'integer' || node.type === 'number') {
    const bounds = [node.minimum !== undefined ? `>= ${node.minimum}` : '', node.maximum !== undefined ? `<= ${node.maximum}` : ''].filter(Boolean);
    return `${node.type === 'integer' ? 'an integer' : 'a number'}${bounds.length ? ` ${bounds.join(' and ')}` : ''}`;
  }
  if (node.type === 'array') {
    return 'a list';
  }
  return `a ${node.type ?? 'value'}`;
}
