/**
 * The one reader of a cloud assembly (`cdk.out`) for every command: manifest.json, nested
 * assemblies (stages), stack artifacts with their names, tags, region and template file, and the
 * asset manifests. It loads no aws-cdk-lib and reads only what the manifest names.
 *
 * Names follow the CDK's own `CloudFormationStackArtifact`: the stack name is
 * `properties.stackName`, else the artifact id; the display name is `displayName`, else the
 * artifact id.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { failuresNaming, readJsonFile } from '../../outputs/cdk-free/json-file';
import { CliError } from '../command';

/** One stack artifact of a cloud assembly. */
export interface AssemblyStack {
  /** Artifact id in its manifest. */
  readonly artifactId: string;
  /** The CloudFormation stack name. */
  readonly stackName: string;
  /** The construct path the CDK CLI shows (`Stage/Stack`). */
  readonly displayName: string;
  /** Region of the stack's environment; undefined when environment-agnostic. */
  readonly region?: string;
  /** Absolute path of the template file. */
  readonly templateFile: string;
  /** Absolute path of the (nested) assembly folder holding the stack. */
  readonly assemblyDir: string;
  /** Stack tags recorded at synth (`properties.tags`); prototype-free. */
  readonly tags: Readonly<Record<string, string>>;
  /** The artifact's metadata written inline in manifest.json (aws-cdk-lib before ~2.200). */
  readonly inlineMetadata?: Readonly<Record<string, unknown>>;
  /** Absolute path of the `additionalMetadataFile` that current aws-cdk-lib writes instead. */
  readonly metadataFile?: string;
}

/** A cloud assembly with its nested assemblies flattened. */
export interface CloudAssembly {
  /** Absolute path of the top-level assembly folder. */
  readonly dir: string;
  /** Every stack, in manifest order, nested assemblies where they are listed. */
  readonly stacks: readonly AssemblyStack[];
  /** Absolute paths of the asset manifests (`cdk:asset-manifest` artifacts). */
  readonly assetManifests: readonly string[];
}

const STACK_TYPE = 'aws:cloudformation:stack';
const NESTED_ASSEMBLY_TYPE = 'cdk:cloud-assembly';
const ASSET_MANIFEST_TYPE = 'cdk:asset-manifest';

/** Reads the assembly in `dir`; throws a CliError naming the file for anything unreadable or malformed. */
export function readCloudAssembly(dir: string): CloudAssembly {
  const root = path.resolve(dir);
  if (!fs.existsSync(path.join(root, 'manifest.json'))) {
    throw new CliError(`${dir}: no cloud assembly here (manifest.json is missing); run 'cdk synth' first or pass --app DIR`);
  }
  const stacks: AssemblyStack[] = [];
  const assetManifests: string[] = [];
  readManifest(root, [], stacks, assetManifests);
  return { dir: root, stacks, assetManifests };
}

/** The parsed template of a stack artifact (a JSON object). */
export function readTemplate(stack: AssemblyStack): Record<string, any> {
  const template = readJsonFile(stack.templateFile, failuresNaming(`stack ${stack.stackName}'s template ${stack.templateFile}`, CliError));
  if (!isPlainObject(template)) {
    throw new CliError(`stack ${stack.stackName}'s template ${stack.templateFile} is not a JSON object`);
  }
  return template;
}

/**
 * Reads one manifest. `ancestors` are the real paths of the assemblies that contain this one:
 * a nested assembly that points back to one of them would be read forever.
 */
function readManifest(dir: string, ancestors: string[], stacks: AssemblyStack[], assetManifests: string[]): void {
  const manifestFile = path.join(dir, 'manifest.json');
  const manifest = readJsonFile(manifestFile, failuresNaming(manifestFile, CliError));
  if (!isPlainObject(manifest)) {
    throw new CliError(`${manifestFile} is not a cloud assembly manifest (expected a JSON object)`);
  }
  const artifacts = manifest.artifacts ?? {};
  if (!isPlainObject(artifacts)) {
    throw new CliError(`${manifestFile}: "artifacts" must be an object`);
  }
  const chain = [...ancestors, realPath(dir)];
  for (const [artifactId, artifact] of Object.entries(artifacts)) {
    if (!isPlainObject(artifact)) {
      continue;
    }
    const properties = isPlainObject(artifact.properties) ? artifact.properties : {};
    const where = `${manifestFile}: artifact ${JSON.stringify(artifactId)}`;
    if (artifact.type === STACK_TYPE) {
      stacks.push(stackArtifact(dir, artifactId, artifact, properties, where));
    } else if (artifact.type === ASSET_MANIFEST_TYPE && typeof properties.file === 'string') {
      assetManifests.push(path.resolve(dir, properties.file));
    } else if (artifact.type === NESTED_ASSEMBLY_TYPE) {
      if (typeof properties.directoryName !== 'string') {
        throw new CliError(`${where} is a nested assembly without properties.directoryName`);
      }
      const nested = path.resolve(dir, properties.directoryName);
      const real = realPath(nested);
      if (chain.includes(real)) {
        throw new CliError(`${where} is a nested assembly in ${JSON.stringify(properties.directoryName)}, which is `
          + `${real === chain[chain.length - 1] ? 'the assembly itself' : `the enclosing assembly ${real}`}: a cloud assembly cannot contain itself`);
      }
      if (!fs.existsSync(path.join(nested, 'manifest.json'))) {
        throw new CliError(`${where} is a nested assembly in ${nested}, which has no manifest.json`);
      }
      readManifest(nested, chain, stacks, assetManifests);
    }
  }
}

function stackArtifact(
  dir: string, artifactId: string, artifact: Record<string, unknown>, properties: Record<string, unknown>, where: string,
): AssemblyStack {
  if (typeof properties.templateFile !== 'string') {
    throw new CliError(`${where} is a stack without properties.templateFile`);
  }
  const region = /^aws:\/\/[^/]*\/(.+)$/.exec(typeof artifact.environment === 'string' ? artifact.environment : '')?.[1];
  return {
    artifactId,
    stackName: typeof properties.stackName === 'string' && properties.stackName !== '' ? properties.stackName : artifactId,
    displayName: typeof artifact.displayName === 'string' ? artifact.displayName : artifactId,
    region: region !== undefined && region !== 'unknown-region' ? region : undefined,
    templateFile: path.resolve(dir, properties.templateFile),
    assemblyDir: dir,
    tags: stringRecord(properties.tags),
    inlineMetadata: isPlainObject(artifact.metadata) ? artifact.metadata : undefined,
    metadataFile: typeof artifact.additionalMetadataFile === 'string' ? path.resolve(dir, artifact.additionalMetadataFile) : undefined,
  };
}

function realPath(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

function stringRecord(value: unknown): Record<string, string> {
  const result: Record<string, string> = Object.create(null);
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string') {
        result[k] = v;
      }
    }
  }
  return result;
}
