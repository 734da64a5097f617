/**
 * Reads the stacks of a cloud assembly (`cdk.out`) without aws-cdk-lib: only manifest.json and
 * the template files, following nested assemblies (stages).
 */
import * as fs from 'fs';
import * as path from 'path';
import { CliError } from '../command';

/** One stack artifact of a cloud assembly. */
export interface AssemblyStack {
  /** The deployed stack name (`properties.stackName`, else the artifact id). */
  readonly name: string;
  /** Artifact id in its manifest. */
  readonly artifactId: string;
  /** Construct path shown by the CDK CLI (`Stage/Stack`). */
  readonly displayName: string;
  /** Absolute path of the template file. */
  readonly templateFile: string;
  /** Stack tags recorded at synth (`properties.tags`). */
  readonly tags: Record<string, string>;
}

const STACK_TYPE = 'aws:cloudformation:stack';
const NESTED_ASSEMBLY_TYPE = 'cdk:cloud-assembly';

/** Every stack of the assembly in `dir`, nested assemblies included, in manifest order. */
export function listAssemblyStacks(dir: string): AssemblyStack[] {
  const manifestFile = path.join(dir, 'manifest.json');
  let text: string;
  try {
    text = fs.readFileSync(manifestFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT'
      ? `${manifestFile} not found: ${dir} is not a cloud assembly; run 'cdk synth' first or pass --app DIR`
      : `${manifestFile}: cannot read: ${code ?? (error as Error).message}`);
  }
  let manifest: any;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${manifestFile}: not valid JSON: ${(error as Error).message}`);
  }
  const artifacts = manifest?.artifacts;
  if (typeof artifacts !== 'object' || artifacts === null) {
    return [];
  }
  const stacks: AssemblyStack[] = [];
  for (const [artifactId, artifact] of Object.entries<any>(artifacts)) {
    const properties = artifact?.properties ?? {};
    if (artifact?.type === STACK_TYPE && typeof properties.templateFile === 'string') {
      stacks.push({
        name: typeof properties.stackName === 'string' ? properties.stackName : artifactId,
        artifactId,
        displayName: typeof artifact.displayName === 'string' ? artifact.displayName : artifactId,
        templateFile: path.join(dir, properties.templateFile),
        tags: stringRecord(properties.tags),
      });
    } else if (artifact?.type === NESTED_ASSEMBLY_TYPE && typeof properties.directoryName === 'string') {
      stacks.push(...listAssemblyStacks(path.join(dir, properties.directoryName)));
    }
  }
  return stacks;
}

/** The parsed template of a stack artifact. */
export function readTemplate(stack: AssemblyStack): any {
  let text: string;
  try {
    text = fs.readFileSync(stack.templateFile, 'utf8');
  } catch (error) {
    throw new CliError(`stack ${stack.name}: cannot read its template ${stack.templateFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`stack ${stack.name}: template ${stack.templateFile} is not valid JSON: ${(error as Error).message}`);
  }
}

function stringRecord(value: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string') {
        result[k] = v;
      }
    }
  }
  return result;
}
