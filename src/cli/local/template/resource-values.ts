/**
 * What CloudFormation gives for `Ref` and `Fn::GetAtt` of a resource, as far as its name decides it
 * (the "Return values" section of each type's page in the CloudFormation resource reference): a
 * DynamoDB table's `Ref` is its name and its `Arn` is `arn:<partition>:dynamodb:<region>:<account>:table/<name>`,
 * an SQS queue's `Ref` is its URL, a topic's or a state machine's `Ref` is its ARN. The name is the
 * template's name property when it sets one; else CloudFormation generates one at deploy, and the
 * local API uses a stand-in in its place (see {@link standInName}).
 */

/** The pseudo parameters a value's format uses. */
export interface ValuePlace {
  readonly partition: string;
  readonly region: string;
  readonly accountId: string;
  readonly urlSuffix: string;
}

type Format = (name: string, place: ValuePlace, properties: Record<string, any>) => string;

/** How one resource type's `Ref` and attributes follow from its name. */
interface ResourceFormat {
  /** The property that names the resource (`TableName`). */
  readonly nameProperty: string;
  /** CloudFormation generates lowercase names for this type (S3 buckets). */
  readonly lowercase?: boolean;
  /** What `Ref` gives, from the name. */
  readonly ref: Format;
  /** The name, from what `Ref` gives (a deployed physical id). */
  readonly nameOfRef: (ref: string) => string;
  /** `Fn::GetAtt` attributes, from the name. */
  readonly attributes: Readonly<Record<string, Format>>;
}

const itself = (name: string): string => name;
const afterLast = (separator: string) => (ref: string): string => ref.slice(ref.lastIndexOf(separator) + 1);
const arn = (service: string, resource: (name: string, properties: Record<string, any>) => string, global = false): Format =>
  (name, place, properties) => `arn:${place.partition}:${service}:${global ? '' : place.region}:${place.accountId}:${resource(name, properties)}`;
const queueUrl: Format = (name, place) => `https://sqs.${place.region}.${place.urlSuffix}/${place.accountId}/${name}`;

const FORMATS: Readonly<Record<string, ResourceFormat>> = {
  'AWS::DynamoDB::Table': {
    nameProperty: 'TableName',
    ref: itself,
    nameOfRef: itself,
    attributes: { Arn: arn('dynamodb', (n) => `table/${n}`) },
  },
  'AWS::SQS::Queue': {
    nameProperty: 'QueueName',
    ref: queueUrl,
    nameOfRef: afterLast('/'),
    attributes: { Arn: arn('sqs', (n) => n), QueueName: itself, QueueUrl: queueUrl },
  },
  'AWS::SNS::Topic': {
    nameProperty: 'TopicName',
    ref: arn('sns', (n) => n),
    nameOfRef: afterLast(':'),
    attributes: { TopicArn: arn('sns', (n) => n), TopicName: itself },
  },
  'AWS::S3::Bucket': {
    nameProperty: 'BucketName',
    lowercase: true,
    ref: itself,
    nameOfRef: itself,
    attributes: {
      Arn: (n, place) => `arn:${place.partition}:s3:::${n}`,
      DomainName: (n, place) => `${n}.s3.${place.urlSuffix}`,
      RegionalDomainName: (n, place) => `${n}.s3.${place.region}.${place.urlSuffix}`,
      DualStackDomainName: (n, place) => `${n}.s3.dualstack.${place.region}.${place.urlSuffix}`,
    },
  },
  'AWS::StepFunctions::StateMachine': {
    nameProperty: 'StateMachineName',
    ref: arn('states', (n) => `stateMachine:${n}`),
    nameOfRef: afterLast(':'),
    attributes: { Arn: arn('states', (n) => `stateMachine:${n}`), Name: itself },
  },
  'AWS::Lambda::Function': {
    nameProperty: 'FunctionName',
    ref: itself,
    nameOfRef: itself,
    attributes: { Arn: arn('lambda', (n) => `function:${n}`) },
  },
  'AWS::Events::EventBus': {
    nameProperty: 'Name',
    ref: itself,
    nameOfRef: itself,
    attributes: { Arn: arn('events', (n) => `event-bus/${n}`), Name: itself },
  },
  'AWS::Kinesis::Stream': {
    nameProperty: 'Name',
    ref: itself,
    nameOfRef: itself,
    attributes: { Arn: arn('kinesis', (n) => `stream/${n}`) },
  },
  'AWS::KinesisFirehose::DeliveryStream': {
    nameProperty: 'DeliveryStreamName',
    ref: itself,
    nameOfRef: itself,
    attributes: { Arn: arn('firehose', (n) => `deliverystream/${n}`) },
  },
  'AWS::Logs::LogGroup': {
    nameProperty: 'LogGroupName',
    ref: itself,
    nameOfRef: itself,
    attributes: { Arn: arn('logs', (n) => `log-group:${n}:*`) },
  },
  'AWS::SSM::Parameter': {
    nameProperty: 'Name',
    ref: itself,
    nameOfRef: itself,
    attributes: {},
  },
  'AWS::IAM::Role': {
    nameProperty: 'RoleName',
    ref: itself,
    nameOfRef: itself,
    attributes: { Arn: arn('iam', (n, p) => `role${typeof p.Path === 'string' ? p.Path : '/'}${n}`, true) },
  },
};

/** The types whose values follow from a name (for tests and the README). */
export const NAMED_TYPES: readonly string[] = Object.keys(FORMATS);

/** The property that names a resource of `type`, when the type is one whose values follow from it. */
export function nameProperty(type: string): string | undefined {
  return Object.hasOwn(FORMATS, type) ? FORMATS[type].nameProperty : undefined;
}

/** The name behind a deployed `Ref` value (a queue URL's last segment, a topic ARN's last part). */
export function nameOfRef(type: string, ref: string): string | undefined {
  return Object.hasOwn(FORMATS, type) ? FORMATS[type].nameOfRef(ref) : undefined;
}

/** `Ref` of a resource of `type` named `name`; undefined for a type whose `Ref` does not follow from a name. */
export function refOfName(type: string, name: string, place: ValuePlace, properties: Record<string, any>): string | undefined {
  return Object.hasOwn(FORMATS, type) ? FORMATS[type].ref(name, place, properties) : undefined;
}

/** `Fn::GetAtt` of a resource of `type` named `name`; undefined for an attribute that does not follow from it. */
export function attributeOfName(
  type: string, attribute: string, name: string, place: ValuePlace, properties: Record<string, any>,
): string | undefined {
  const format = Object.hasOwn(FORMATS, type) ? FORMATS[type] : undefined;
  return format !== undefined && Object.hasOwn(format.attributes, attribute) ? format.attributes[attribute](name, place, properties) : undefined;
}

/**
 * The name used in place of one CloudFormation generates at deploy (`<stack>-<logical id>-<random>`):
 * `<stack>-<logical id>-LOCAL`, lowercase where the type's names are (S3), with `.fifo` for a FIFO
 * queue (whose name must end so).
 */
export function standInName(type: string, stackName: string, logicalId: string, properties: Record<string, any>): string {
  const name = `${stackName}-${logicalId}-LOCAL`;
  if (Object.hasOwn(FORMATS, type) && FORMATS[type].lowercase) {
    return name.toLowerCase();
  }
  if (type === 'AWS::SQS::Queue' && (properties.FifoQueue === true || properties.FifoQueue === 'true')) {
    return `${name}.fifo`;
  }
  return name;
}
