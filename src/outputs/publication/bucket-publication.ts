/**
 * `publishToBucket`: at deploy time, aws-cdk-lib's BucketDeployment writes the final document
 * into an S3 object. Its deploy-time values reach the object through BucketDeployment's markers,
 * which its handler substitutes (JSON-escaped) when CloudFormation runs it.
 */
import { AspectPriority, Aspects, IAspect, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { IConstruct } from 'constructs';
import { PublishToBucketOptions } from './publish-to-bucket-options';
import { publishedText } from './published-text';
import { OutputsCollector } from '../collector';
import { addNagSuppressions } from '../nag-metadata';

/** Characters an object key may hold here: S3's safe characters. */
const SAFE_KEY = /^[A-Za-z0-9!_.*'()/-]+$/;

/** Checks an object key; throws naming `where` and what is allowed. */
export function checkObjectKey(key: string, where: string): void {
  const problem = typeof key !== 'string' || key.length === 0 ? 'is empty'
    : !SAFE_KEY.test(key) ? "holds a character outside S3's safe set (letters, digits and ! - _ . * ' ( ) /)"
      : key.startsWith('/') ? 'starts with /'
        : key.endsWith('/') ? 'ends with / (that names a folder)'
          : key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..') ? 'has an empty, . or .. path segment'
            : key.length > 1024 ? 'is longer than 1024 characters' : undefined;
  if (problem !== undefined) {
    throw new Error(`${where}: publishToBucket: the object key ${JSON.stringify(key)} ${problem}; give a key such as 'vendor_outputs.json' or 'config/vendor_outputs.json'`);
  }
}

/**
 * Creates the BucketDeployment that writes the document to `bucket`/`key`. Its data source is
 * added once the document is complete (by an aspect, at synth), because `Source.data` renders
 * its content when it is bound.
 */
export function createBucketPublication(
  collector: OutputsCollector, scope: IConstruct, id: string, bucket: s3.IBucket, key: string, options: PublishToBucketOptions,
): void {
  const deployment = new s3deploy.BucketDeployment(scope, id, {
    sources: [],
    destinationBucket: bucket,
    // The bucket usually holds a whole site: only this object is ours to write.
    prune: false,
    contentType: 'application/json',
    // Browsers and CloudFront revalidate, so a frontend never reads a file from an older deploy.
    cacheControl: [s3deploy.CacheControl.noCache()],
    distribution: options.distribution,
    distributionPaths: options.distribution !== undefined ? [`/${key}`] : undefined,
  });
  suppressHandlerFindings(Stack.of(scope), deployment);
  Aspects.of(collector).add(new AddDocumentSource(collector, deployment, key), { priority: AspectPriority.READONLY });
}

/**
 * Adds the document as the deployment's only source when the synth reaches the collector. Runs
 * after the writer aspect (same priority, added later), so the document has been validated; it
 * adds nothing but the source's asset under the deployment.
 */
class AddDocumentSource implements IAspect {
  private added = false;

  constructor(private readonly collector: OutputsCollector, private readonly deployment: s3deploy.BucketDeployment, private readonly key: string) {}

  public visit(node: IConstruct): void {
    if (node !== this.collector || this.added) {
      return;
    }
    this.added = true;
    const text = publishedText(this.collector);
    this.deployment.addSource(jsonEscapedData(this.key, text));
  }
}

/** `Source.data` as aws-cdk-lib releases since `jsonEscape` declare it. */
interface DataSourceWithMarkersConfig {
  data(objectKey: string, data: string, markersConfig?: { readonly jsonEscape?: boolean }): s3deploy.ISource;
}

/**
 * The object's source, with every deploy-time value JSON-escaped as the handler substitutes it.
 * `jsonEscape` is asked for where aws-cdk-lib has it; older releases (2.189) ignore the argument
 * and their handler parses a JSON object, substitutes inside its strings and writes it again, which
 * escapes values too (compactly formatted).
 */
function jsonEscapedData(key: string, text: string): s3deploy.ISource {
  return (s3deploy.Source as unknown as DataSourceWithMarkersConfig).data(key, text, { jsonEscape: true });
}

/**
 * Suppresses the cdk-nag findings on the deployment's handler, each on the resource it concerns.
 * The handler is aws-cdk-lib's singleton for every BucketDeployment of the stack, built as
 * aws-cdk-lib builds it; the findings are its design, not a choice made here.
 */
function suppressHandlerFindings(stack: Stack, deployment: s3deploy.BucketDeployment): void {
  const handler = "aws-cdk-lib's BucketDeployment handler, which copies the published vendor_outputs.json into the destination bucket";
  const role = deployment.handlerRole.node.defaultChild;
  if (role instanceof iam.CfnRole) {
    addNagSuppressions(role, [{ id: 'AwsSolutions-IAM4', reason: `${handler}: aws-cdk-lib gives its role the AWSLambdaBasicExecutionRole managed policy, for its logs only` }]);
  }
  const policy = deployment.handlerRole.node.tryFindChild('DefaultPolicy')?.node.defaultChild;
  if (policy instanceof iam.CfnPolicy) {
    addNagSuppressions(policy, [{
      id: 'AwsSolutions-IAM5',
      reason: `${handler}: aws-cdk-lib grants it read on the asset bucket and read-write on the destination bucket with its grant methods' object wildcards (s3:GetObject*, s3:List*, s3:DeleteObject*, bucket/*)`,
    }]);
  }
  for (const child of stack.node.children) {
    const fn = child.node.id.startsWith('Custom::CDKBucketDeployment') ? child.node.defaultChild : undefined;
    if (fn instanceof lambda.CfnFunction) {
      addNagSuppressions(fn, [{ id: 'AwsSolutions-L1', reason: `${handler}: aws-cdk-lib pins the Python runtime its handler code is written for` }]);
    }
  }
}
