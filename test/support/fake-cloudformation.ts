/**
 * A local stand-in for CloudFormation that the real AWS SDK v3 client talks to
 * (AWS_ENDPOINT_URL_CLOUDFORMATION=http://127.0.0.1:PORT). It answers the query protocol
 * (POST, form-encoded `Action=...&Version=2010-05-15`) with the XML responses of the
 * 2010-05-15 namespace for DescribeStacks, GetTemplateSummary, GetTemplate and ListStackResources, and with the
 * ErrorResponse XML shape for errors. Stacks are "deployed" from synthesized templates:
 * {@link evaluateOutputs} computes the stack outputs from the template's intrinsic functions.
 */
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';

const NAMESPACE = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

/** A stack as the fake serves it. */
export interface FakeStack {
  readonly name: string;
  /** @default - an ARN built from the name */
  readonly id?: string;
  /** @default CREATE_COMPLETE */
  readonly status?: string;
  /** The template (its Metadata feeds GetTemplateSummary and GetTemplate). */
  readonly template: any;
  /** OutputKey → OutputValue. */
  readonly outputs: Record<string, string>;
  readonly tags?: Record<string, string>;
  /** Set for a nested stack. */
  readonly rootId?: string;
  /** Like some emulators: GetTemplateSummary answers without Metadata (generate then uses GetTemplate). */
  readonly summaryWithoutMetadata?: boolean;
  /** Logical id → physical id, for ListStackResources (paged by `pageSize`). */
  readonly resources?: Record<string, string>;
}

/** One request the fake received. */
export interface FakeCall {
  readonly action: string;
  readonly params: Record<string, string>;
  readonly authorization: string;
}

/** An error to answer an action with. */
export interface FakeError {
  readonly code: string;
  readonly message: string;
  /** @default 400 */
  readonly status?: number;
}

export class FakeCloudFormation {
  public stacks: FakeStack[] = [];
  public readonly calls: FakeCall[] = [];
  /** Errors by action, answered instead of the normal response. */
  public errors: Record<string, FakeError> = {};
  /** Stacks per DescribeStacks page when no StackName is given (to exercise NextToken). */
  public pageSize = 2;
  private server?: http.Server;

  /** Starts listening on 127.0.0.1 and resolves to the endpoint URL. */
  public async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(body));
        const action = params.Action ?? '';
        this.calls.push({ action, params, authorization: String(request.headers.authorization ?? '') });
        const { status, xml } = this.answer(action, params);
        response.writeHead(status, { 'Content-Type': 'text/xml', 'x-amzn-RequestId': 'fake-request-id' });
        response.end(xml);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  public async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Actions received, in order. */
  public actions(): string[] {
    return this.calls.map((c) => c.action);
  }

  private answer(action: string, params: Record<string, string>): { status: number; xml: string } {
    const injected = this.errors[action];
    if (injected) {
      return errorResponse(injected.code, injected.message, injected.status ?? 400);
    }
    if (params.Version !== '2010-05-15') {
      return errorResponse('InvalidParameterValue', `unexpected Version ${params.Version}`, 400);
    }
    switch (action) {
      case 'DescribeStacks': {
        if (params.StackName !== undefined) {
          const stack = this.find(params.StackName);
          return stack ? ok(action, `<Stacks>${stackXml(stack)}</Stacks>`) : notFound(params.StackName);
        }
        const start = Number(params.NextToken ?? '0');
        const page = this.stacks.slice(start, start + this.pageSize);
        const next = start + this.pageSize < this.stacks.length ? `<NextToken>${start + this.pageSize}</NextToken>` : '';
        return ok(action, `<Stacks>${page.map(stackXml).join('')}</Stacks>${next}`);
      }
      case 'GetTemplateSummary': {
        const stack = this.find(params.StackName);
        if (!stack) {
          return notFound(params.StackName);
        }
        const metadata = stack.template.Metadata !== undefined && !stack.summaryWithoutMetadata
          ? element('Metadata', JSON.stringify(stack.template.Metadata))
          : '';
        return ok(action, `<Parameters/><ResourceTypes><member>AWS::S3::Bucket</member></ResourceTypes><Version>2010-09-09</Version>${metadata}`);
      }
      case 'GetTemplate': {
        const stack = this.find(params.StackName);
        if (!stack) {
          return notFound(params.StackName);
        }
        return ok(action, `${element('TemplateBody', JSON.stringify(stack.template))}<StagesAvailable><member>Original</member><member>Processed</member></StagesAvailable>`);
      }
      case 'ListStackResources': {
        const stack = this.find(params.StackName);
        if (!stack) {
          return notFound(params.StackName);
        }
        const all = Object.entries(stack.resources ?? {});
        const start = Number(params.NextToken ?? '0');
        const page = all.slice(start, start + this.pageSize).map(([logicalId, physicalId]) => '<member>'
          + element('LogicalResourceId', logicalId) + element('PhysicalResourceId', physicalId)
          + '<ResourceType>AWS::CloudFormation::WaitConditionHandle</ResourceType><LastUpdatedTimestamp>2024-05-01T12:00:00.000Z</LastUpdatedTimestamp>'
          + '<ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>').join('');
        const next = start + this.pageSize < all.length ? `<NextToken>${start + this.pageSize}</NextToken>` : '';
        return ok(action, `<StackResourceSummaries>${page}</StackResourceSummaries>${next}`);
      }
      default:
        return errorResponse('InvalidAction', `The action ${action} is not valid for this web service.`, 400);
    }
  }

  private find(nameOrId: string | undefined): FakeStack | undefined {
    return this.stacks.find((s) => s.name === nameOrId || stackId(s) === nameOrId);
  }
}

/** XML-escapes text content. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\r/g, '&#13;');
}

function element(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

function stackId(stack: FakeStack): string {
  return stack.id ?? `arn:aws:cloudformation:us-east-1:123456789012:stack/${stack.name}/00000000-0000-0000-0000-${stack.name.length.toString().padStart(12, '0')}`;
}

function stackXml(stack: FakeStack): string {
  const outputs = Object.entries(stack.outputs)
    .map(([key, value]) => `<member>${element('OutputKey', key)}${element('OutputValue', value)}</member>`).join('');
  const tags = Object.entries(stack.tags ?? {})
    .map(([key, value]) => `<member>${element('Key', key)}${element('Value', value)}</member>`).join('');
  return '<member>'
    + element('StackId', stackId(stack))
    + element('StackName', stack.name)
    + '<CreationTime>2024-05-01T12:00:00.000Z</CreationTime>'
    + element('StackStatus', stack.status ?? 'CREATE_COMPLETE')
    + (stack.rootId ? element('RootId', stack.rootId) + element('ParentId', stack.rootId) : '')
    + `<Outputs>${outputs}</Outputs><Tags>${tags}</Tags>`
    + '</member>';
}

function ok(action: string, result: string): { status: number; xml: string } {
  return {
    status: 200,
    xml: `<${action}Response xmlns="${NAMESPACE}"><${action}Result>${result}</${action}Result>`
      + `<ResponseMetadata><RequestId>fake-request-id</RequestId></ResponseMetadata></${action}Response>`,
  };
}

function notFound(name: string | undefined): { status: number; xml: string } {
  return errorResponse('ValidationError', `Stack with id ${name} does not exist`, 400);
}

function errorResponse(code: string, message: string, status: number): { status: number; xml: string } {
  return {
    status,
    xml: `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>${status >= 500 ? 'Receiver' : 'Sender'}</Type>`
      + `${element('Code', code)}${element('Message', message)}</Error><RequestId>fake-request-id</RequestId></ErrorResponse>`,
  };
}

/**
 * Deployed values of references: `Ref` by logical id or pseudo parameter (`AWS::Region`),
 * `Fn::GetAtt` by `LogicalId.Attribute`. Unlisted references resolve to `<id>-physical-id` and
 * `<id>-<attribute>`; `AWS::Region` defaults to us-east-1.
 */
export type DeployedValues = Record<string, string>;

/**
 * What CloudFormation would report as the stack outputs: every `Outputs[].Value` of the template
 * evaluated (Ref, Fn::GetAtt, Fn::Join, Fn::Base64, Fn::Select, Fn::Sub without variables map).
 */
export function evaluateOutputs(template: any, values: DeployedValues = {}): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [key, output] of Object.entries<any>(template.Outputs ?? {})) {
    outputs[key] = String(evaluate(output.Value, values));
  }
  return outputs;
}

/** The value CloudFormation gives a template expression, with `values` for Ref and Fn::GetAtt. */
export function evaluate(expression: any, values: DeployedValues): any {
  if (typeof expression === 'string' || typeof expression === 'number' || typeof expression === 'boolean') {
    return String(expression);
  }
  if (Array.isArray(expression)) {
    return expression.map((e) => evaluate(e, values));
  }
  const [fn] = Object.keys(expression ?? {});
  const arg = expression[fn];
  switch (fn) {
    case 'Ref':
      return values[arg] ?? (arg === 'AWS::Region' ? 'us-east-1' : arg === 'AWS::URLSuffix' ? 'amazonaws.com' : `${arg}-physical-id`);
    case 'Fn::GetAtt': {
      const [id, attribute] = Array.isArray(arg) ? arg : String(arg).split('.');
      return values[`${id}.${attribute}`] ?? `${id}-${attribute}`;
    }
    case 'Fn::Join':
      return (evaluate(arg[1], values) as string[]).join(arg[0]);
    case 'Fn::Base64':
      return Buffer.from(evaluate(arg, values), 'utf8').toString('base64');
    case 'Fn::Select':
      return evaluate(arg[1], values)[Number(evaluate(arg[0], values))];
    case 'Fn::Sub':
      return String(arg).replace(/\$\{([^}]+)\}/g, (_, name: string) => evaluate(name.includes('.') ? { 'Fn::GetAtt': name } : { Ref: name }, values));
    default:
      throw new Error(`fake CloudFormation cannot evaluate ${JSON.stringify(expression)}`);
  }
}

/**
 * The environment of a CLI run against the local CloudFormation at `endpoint`: fake credentials,
 * a fixed region, and no profile, config file or instance metadata of the machine (files under
 * `dir` that do not exist).
 */
export function fakeAwsEnv(endpoint: string, dir: string): Record<string, string | undefined> {
  return {
    AWS_ENDPOINT_URL_CLOUDFORMATION: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDFAKE',
    AWS_SECRET_ACCESS_KEY: 'fake-secret',
    AWS_SESSION_TOKEN: undefined,
    AWS_PROFILE: undefined,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: path.join(dir, 'no-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'no-credentials'),
  };
}
