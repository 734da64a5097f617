/**
 * Reads deployed stacks through the AWS SDK v3 CloudFormation client.
 *
 * The SDK is loaded here, on first use, never at the top of a module: `validate` and offline
 * `generate` do not pay for it. Region, credentials and endpoint come from the SDK's standard
 * chain (AWS_REGION, AWS_PROFILE, ~/.aws/config, AWS_ENDPOINT_URL_CLOUDFORMATION or
 * AWS_ENDPOINT_URL, which SDK v3 honours itself), overridden by --region and --profile.
 */
import type * as Sdk from '@aws-sdk/client-cloudformation';
import { CliError } from '../command';

/** What generate needs of a deployed stack. */
export interface DeployedStack {
  readonly stackName: string;
  readonly id: string;
  readonly status: string | undefined;
  readonly outputs: Readonly<Record<string, string>>;
  readonly tags: Readonly<Record<string, string>>;
  /** True for a nested stack (it has a root stack). */
  readonly nested: boolean;
}

/** Options of the client, from the command line. */
export interface ReaderOptions {
  readonly region?: string;
  readonly profile?: string;
}

export class CloudFormationReader {
  private readonly sdk: typeof Sdk;
  private readonly client: Sdk.CloudFormationClient;

  constructor(options: ReaderOptions) {
    // The SDK warns on stderr that its future releases need Node 22. The SDK ships bundled in
    // this package, so users cannot act on that; keep the CLI's stderr for its own messages.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.sdk = require('@aws-sdk/client-cloudformation');
    this.client = new this.sdk.CloudFormationClient({
      ...(options.region !== undefined ? { region: options.region } : {}),
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
    });
  }

  /** The region the client talks to (for messages). */
  public async region(): Promise<string> {
    try {
      return await this.client.config.region();
    } catch (error) {
      throw this.translate(error, 'resolve the region');
    }
  }

  /** One stack by name or id; a CliError when it does not exist. */
  public async describeStack(name: string): Promise<DeployedStack> {
    const response = await this.send<Sdk.DescribeStacksCommandOutput>(new this.sdk.DescribeStacksCommand({ StackName: name }), 'DescribeStacks', name);
    const stack = response.Stacks?.[0];
    if (stack === undefined) {
      throw new CliError(await this.notFound(name));
    }
    return toDeployedStack(stack);
  }

  /** Every live stack of the account and region, page by page. */
  public async listStacks(): Promise<DeployedStack[]> {
    const stacks: DeployedStack[] = [];
    let nextToken: string | undefined;
    do {
      const response = await this.send<Sdk.DescribeStacksCommandOutput>(new this.sdk.DescribeStacksCommand({ NextToken: nextToken }), 'DescribeStacks');
      stacks.push(...(response.Stacks ?? []).map(toDeployedStack));
      nextToken = response.NextToken;
    } while (nextToken);
    return stacks;
  }

  /** The physical id of each resource of the stack (what `Ref` gives for most types), page by page. */
  public async physicalIds(stack: DeployedStack): Promise<Record<string, string>> {
    // Prototype-free: a logical id named `__proto__` is an ordinary key.
    const ids: Record<string, string> = Object.create(null);
    let nextToken: string | undefined;
    do {
      const command = new this.sdk.ListStackResourcesCommand({ StackName: stack.id, NextToken: nextToken });
      const response = await this.send<Sdk.ListStackResourcesCommandOutput>(command, 'ListStackResources', stack.stackName);
      for (const summary of response.StackResourceSummaries ?? []) {
        if (summary.LogicalResourceId !== undefined && summary.PhysicalResourceId !== undefined && summary.PhysicalResourceId !== '') {
          ids[summary.LogicalResourceId] = summary.PhysicalResourceId;
        }
      }
      nextToken = response.NextToken;
    } while (nextToken);
    return ids;
  }

  /**
   * The template's Metadata. From GetTemplateSummary (its `Metadata` is a JSON string); when that
   * has none (some CloudFormation emulators omit it), from the template itself (GetTemplate).
   */
  public async templateMetadata(stack: DeployedStack): Promise<unknown> {
    const summary = await this.send<Sdk.GetTemplateSummaryCommandOutput>(new this.sdk.GetTemplateSummaryCommand({ StackName: stack.id }), 'GetTemplateSummary', stack.stackName);
    if (typeof summary.Metadata === 'string' && summary.Metadata !== '') {
      return parseJson(summary.Metadata, `stack ${stack.stackName}: GetTemplateSummary returned Metadata that`);
    }
    const template = await this.send<Sdk.GetTemplateCommandOutput>(new this.sdk.GetTemplateCommand({ StackName: stack.id }), 'GetTemplate', stack.stackName);
    if (template.TemplateBody === undefined) {
      return undefined;
    }
    let body: any;
    try {
      body = JSON.parse(template.TemplateBody);
    } catch {
      return undefined; // a YAML template: not synthesized by the CDK, so not by this library.
    }
    return body?.Metadata;
  }

  private async send<T>(command: any, action: string, stackName?: string): Promise<T> {
    try {
      return await this.client.send(command) as T;
    } catch (error) {
      if (stackName !== undefined && isNotFound(error)) {
        throw new CliError(await this.notFound(stackName));
      }
      throw this.translate(error, `call CloudFormation ${action}`);
    }
  }

  private async notFound(name: string): Promise<string> {
    let region = '';
    try {
      region = ` in region ${await this.client.config.region()}`;
    } catch {
      // No region: the call could not have been made; keep the message short.
    }
    return `stack ${name} not found${region} (check the name, --region and --profile)`;
  }

  private translate(error: unknown, what: string): CliError {
    const e = error as { name?: string; message?: string; code?: string };
    const message = e?.message ?? String(error);
    if (/region is missing/i.test(message)) {
      return new CliError('no AWS region: pass --region REGION or set AWS_REGION (or a region in your AWS profile)');
    }
    if (e?.name === 'CredentialsProviderError' || /credential/i.test(message)) {
      return new CliError(`cannot ${what}: no usable AWS credentials (${message}); pass --profile NAME or set AWS credentials in the environment`);
    }
    const name = e?.name && e.name !== 'Error' ? `${e.name}: ` : '';
    return new CliError(`cannot ${what}: ${name}${message}${e?.code && !message.includes(e.code) ? ` (${e.code})` : ''}`);
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; message?: string };
  return e?.name === 'ValidationError' && /does not exist/.test(e.message ?? '');
}

function toDeployedStack(stack: Sdk.Stack): DeployedStack {
  // Prototype-free: an output key or tag named `__proto__` is an ordinary key.
  const outputs: Record<string, string> = Object.create(null);
  for (const output of stack.Outputs ?? []) {
    if (output.OutputKey !== undefined) {
      outputs[output.OutputKey] = output.OutputValue ?? '';
    }
  }
  const tags: Record<string, string> = Object.create(null);
  for (const tag of stack.Tags ?? []) {
    if (tag.Key !== undefined) {
      tags[tag.Key] = tag.Value ?? '';
    }
  }
  return {
    stackName: stack.StackName ?? '',
    id: stack.StackId ?? stack.StackName ?? '',
    status: stack.StackStatus,
    outputs,
    tags,
    nested: stack.RootId !== undefined || stack.ParentId !== undefined,
  };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}
