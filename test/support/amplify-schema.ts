/**
 * A GraphQL schema of `count` models in the model directives of Amplify's GraphQL transformer,
 * each with scalar, enum, custom-type and list fields, a secondary index, owner and public rules,
 * and a has-many / belongs-to pair with its neighbours: the large schemas of the size tests and
 * the benchmark.
 */
export function modelsSchema(count: number): string {
  const parts = [
    'enum Status { DRAFT PUBLISHED ARCHIVED }',
    'type Address { street: String city: String zip: String }',
  ];
  for (let i = 0; i < count; i++) {
    const next = (i + 1) % count;
    parts.push(`type Model${i} @model @auth(rules: [{ allow: owner }, { allow: public, operations: [read] }]) {
  id: ID!
  name: String! @index(name: "byName${i}", queryField: "model${i}ByName")
  description: String
  count: Int
  price: Float
  active: Boolean
  status: Status
  address: Address
  tags: [String]
  createdOn: AWSDateTime
  children: [Model${next}] @hasMany
  parent: Model${(i + count - 1) % count} @belongsTo
}`);
  }
  return parts.join('\n');
}
