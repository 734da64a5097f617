/**
 * ModelIntrospection: the data client's model introspection, generated from an Amplify-style
 * GraphQL schema by the toolchain's own generator, and checked for the shape the client reads.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateModels } from '@aws-amplify/graphql-generator';
import { ModelIntrospection } from '../../../src';
import { libFile } from '../../support/compiled';

const ROOT = path.join(__dirname, '..', '..', '..');
const SCHEMA_FILE = path.join(ROOT, 'test', 'fixtures', 'amplify', 'schema.graphql');
const SCHEMA = fs.readFileSync(SCHEMA_FILE, 'utf8');

/** What the toolchain writes for `schema`, through its asynchronous API (the path `ampx` takes). */
async function toolchainIntrospection(schema: string): Promise<any> {
  const files = await generateModels({ schema, target: 'introspection' });
  return JSON.parse(files['model-introspection.json']);
}

describe('generated from a schema', () => {
  test('equals what the toolchain generates: models, relations, index, auth, enums, custom types, queries and mutations', async () => {
    const document = ModelIntrospection.fromSchema(SCHEMA).document;
    expect(document).toEqual(await toolchainIntrospection(SCHEMA));
    // What the reference schema declares is there, so the comparison is not of two empty documents.
    expect(Object.keys(document.models)).toEqual(['Blog', 'Post', 'Comment']);
    expect(document.models.Blog.fields.posts.association).toEqual({ connectionType: 'HAS_MANY', associatedWith: ['blogPostsId'] });
    expect(document.models.Post.fields.blog.association.connectionType).toBe('BELONGS_TO');
    expect(document.models.Post.attributes).toContainEqual({ type: 'key', properties: { name: 'byTitle', queryField: 'postsByTitle', fields: ['title'] } });
    expect(document.enums.BlogStatus.values).toEqual(['DRAFT', 'PUBLISHED', 'ARCHIVED']);
    expect(document.nonModels.Location.fields.lat.type).toBe('Float');
    expect(Object.keys(document.queries)).toEqual(['echo']);
    expect(document.mutations.likePost.type).toEqual({ model: 'Post' });
  });

  test('fromSchemaFile reads the file', () => {
    expect(ModelIntrospection.fromSchemaFile(SCHEMA_FILE).document).toEqual(ModelIntrospection.fromSchema(SCHEMA).document);
  });

  test('a file that cannot be read is named', () => {
    expect(() => ModelIntrospection.fromSchemaFile('/nonexistent/schema.graphql'))
      .toThrow('ModelIntrospection.fromSchemaFile: cannot read /nonexistent/schema.graphql: ENOENT');
  });

  test('a schema with a syntax error is refused with its file, line and column', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'introspection-')), 'broken.graphql');
    fs.writeFileSync(file, 'type Todo @model {\n  id: ID!\n  name String\n}\n');
    expect(() => ModelIntrospection.fromSchemaFile(file))
      .toThrow(`ModelIntrospection: ${file}:3:8: @aws-amplify/graphql-generator refused the schema: Syntax Error: Expected ":", found Name "String".`);
  });

  test.each([
    ['a field', 'type Todo @model {\n  id: ID!\n  owner: Usr\n}\n', 'Usr', '3:10'],
    ['a required list', 'type Todo @model {\n  id: ID!\n  tags: [ Tagg! ]!\n}\ntype Tagg2 { id: ID }\n', 'Tagg', '3:11'],
    ['an argument', 'type Todo @model { id: ID! }\ntype Query {\n  find(filter:\n    Filtr): Todo @function(name: "f")\n}\n', 'Filtr', '4:5'],
  ])('an unknown type used in %s is refused at its first use', (_, schema, name, at) => {
    expect(() => ModelIntrospection.fromSchema(schema))
      .toThrow(`ModelIntrospection: the schema:${at}: @aws-amplify/graphql-generator refused the schema: Unknown type: "${name}".`);
  });

  test('each document is its own copy', () => {
    const first = ModelIntrospection.fromSchema(SCHEMA).document;
    first.models.Blog.name = 'changed';
    expect(ModelIntrospection.fromSchema(SCHEMA).document.models.Blog.name).toBe('Blog');
  });

  test('without the generator installed, the error says how to install it', () => {
    const run = fromSchemaInProcess({ hide: 'resolve' });
    expect(run.stdout.trim()).toBe("ModelIntrospection.fromSchema needs the Amplify model generator: install it in your CDK app with 'npm install --save-dev @aws-amplify/graphql-generator@^0.5' "
      + '(or pass a document generated elsewhere to ModelIntrospection.fromDocument)');
  });
});

describe('the generation cache in node_modules/.cache', () => {
  test('a synth whose schema did not change neither loads nor runs the generator; a damaged entry or cache off generates again', () => {
    const app = fs.mkdtempSync(path.join(os.tmpdir(), 'introspection-cache-'));
    fs.mkdirSync(path.join(app, 'node_modules'));
    const cache = path.join(app, 'node_modules', '.cache', 'cdk-vendor-outputs', 'model-introspection');

    expect(fromSchemaInProcess({ cwd: app }).stdout.trim()).toBe('Blog,Post,Comment');
    const entries = fs.readdirSync(cache);
    expect(entries).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(path.join(cache, entries[0]), 'utf8'))).toEqual(ModelIntrospection.fromSchema(SCHEMA).document);

    // Loading the generator now fails: only the cache can answer.
    expect(fromSchemaInProcess({ cwd: app, hide: 'load' }).stdout.trim()).toBe('Blog,Post,Comment');
    expect(fromSchemaInProcess({ cwd: app, hide: 'load', env: { VENDOR_OUTPUTS_INTROSPECTION_CACHE: 'off' } }).stdout.trim()).toBe('generator loaded');
    fs.writeFileSync(path.join(cache, entries[0]), '{"damaged":');
    expect(fromSchemaInProcess({ cwd: app, hide: 'load' }).stdout.trim()).toBe('generator loaded');
    fs.rmSync(app, { recursive: true, force: true });
  });
});

/**
 * Runs ModelIntrospection.fromSchema on the reference schema in a separate process, where the
 * generator can be made unresolvable (`resolve`: as in an app that did not install it) or
 * unloadable (`load`: any attempt to load it prints 'generator loaded' and fails). Prints the
 * model names, or the error message.
 */
function fromSchemaInProcess(options: { cwd?: string; hide?: 'resolve' | 'load'; env?: Record<string, string> }) {
  const hook = `const Module = require('module');
const resolve = Module._resolveFilename;
const load = Module._load;
const generator = require.resolve('@aws-amplify/graphql-generator', { paths: [${JSON.stringify(__dirname)}] });
if (${JSON.stringify(options.hide)} === 'resolve') {
  Module._resolveFilename = function (request, ...rest) {
    if (request === '@aws-amplify/graphql-generator') { const e = new Error('Cannot find module ' + request); e.code = 'MODULE_NOT_FOUND'; throw e; }
    return resolve.call(this, request, ...rest);
  };
}
if (${JSON.stringify(options.hide)} === 'load') {
  Module._load = function (request, ...rest) {
    if (request === generator) { console.log('generator loaded'); process.exit(0); }
    return load.call(this, request, ...rest);
  };
}`;
  const script = `${hook}
const { ModelIntrospection } = require(${JSON.stringify(libFile(path.join('constructs', 'producers', 'model-introspection.js')))});
try { console.log(Object.keys(ModelIntrospection.fromSchema(${JSON.stringify(SCHEMA)}).document.models).join(',')); } catch (e) { console.log(e.message); }`;
  return spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: options.cwd, env: { ...process.env, ...options.env } });
}

describe('checked for the shape the data client reads', () => {
  const valid = () => ModelIntrospection.fromSchema(SCHEMA).document;
  const refusal = (edit: (document: any) => void): string => {
    const document = valid();
    edit(document);
    try {
      ModelIntrospection.fromDocument(document);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };

  test('a generated document passes', () => {
    expect(() => ModelIntrospection.fromDocument(valid())).not.toThrow();
  });

  test.each<[string, (d: any) => void, string]>([
    ['another version', (d) => { d.version = 2; }, 'version must be 1 (got 2)'],
    ['no models', (d) => { delete d.models; }, 'models must be an object of models by name (got undefined)'],
    ['enums a list', (d) => { d.enums = []; }, 'enums must be an object of enums by name (got [])'],
    ['a model named unlike its key', (d) => { d.models.Blog.name = 'Blogs'; }, 'model Blog: name must be "Blog", its key (got "Blogs")'],
    ['a model without fields', (d) => { delete d.models.Post.fields; }, 'model Post: fields must be an object of fields by name (got undefined)'],
    ['a model without pluralName', (d) => { delete d.models.Post.pluralName; }, 'model Post: pluralName must be a non-empty string (got undefined)'],
    ['a primary key that is no field', (d) => { d.models.Comment.primaryKeyInfo.primaryKeyFieldName = 'uuid'; }, 'model Comment: primaryKeyInfo names "uuid", which is not one of its fields'],
    ['a field without a type', (d) => { delete d.models.Post.fields.title.type; }, 'model Post, field title: type must be a scalar name or one of { model | enum | nonModel | input: NAME } (got undefined)'],
    ['a relation to a missing model', (d) => { d.models.Post.fields.blog.type = { model: 'Blg' }; }, 'model Post, field blog: type {"model":"Blg"} names no model of the document (models: Blog, Post, Comment)'],
    ['an enum field to a missing enum', (d) => { delete d.enums.BlogStatus; }, 'model Blog, field status: type {"enum":"BlogStatus"} names no enum of the document (enums: none)'],
    ['isRequired not a boolean', (d) => { d.models.Blog.fields.name.isRequired = 'yes'; }, 'model Blog, field name: isRequired must be true or false (got "yes")'],
    ['enum values not strings', (d) => { d.enums.BlogStatus.values = [1]; }, 'enum BlogStatus: values must be a list of strings (got [1])'],
    ['a non-model field to a missing type', (d) => { d.nonModels.Location.fields.lat.type = { nonModel: 'Point' }; }, 'non-model Location, field lat: type {"nonModel":"Point"} names no nonModel of the document'],
    ['a query argument without isArray', (d) => { delete d.queries.echo.arguments.message.isArray; }, 'query echo, argument message: isArray must be true or false (got undefined)'],
    ['a mutation returning a missing model', (d) => { d.mutations.likePost.type = { model: 'Like' }; }, 'mutation likePost: type {"model":"Like"} names no model of the document'],
  ])('%s is refused, naming the model and field', (_, edit, problem) => {
    const message = refusal(edit);
    expect(message).toContain('ModelIntrospection: ModelIntrospection.fromDocument is not a model introspection document the data client can read:\n  ');
    expect(message).toContain(problem);
  });

  test('every problem is listed', () => {
    const message = refusal((d) => {
      d.version = 0;
      d.models.Blog.fields.name.isArray = null;
    });
    expect(message.split('\n').slice(1)).toEqual(['  version must be 1 (got 0)', '  model Blog, field name: isArray must be true or false (got null)']);
  });

  test('not an object at all', () => {
    expect(() => ModelIntrospection.fromDocument([] as any)).toThrow('must be an object with version, models, enums and nonModels (got [])');
  });
});
