/**
 * The entry of a Lambda function URL (aws-lambda `FunctionUrl`, what `Function.addFunctionUrl`
 * makes): its URL, `https://<url-id>.lambda-url.<region>.on.aws/`, which already ends with `/`. A
 * function URL has no API id or stage of its own, so the entry has neither.
 */
import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { ApiEntryValues } from './api-entry';

/** The function URL's values (without the API keys it has no value for). */
export function functionUrlEntry(url: lambda.IFunctionUrl, apiName: string): ApiEntryValues {
  return {
    api_endpoint: url.url,
    api_name: apiName,
    vendor_region: Stack.of(url).region,
    api_kind: 'function_url',
  };
}

/**
 * The name a function URL is known by when none is given: the id of the function it was added
 * to (`fn.addFunctionUrl()` makes the URL a child of the function), else the URL's own id.
 */
export function functionUrlName(url: lambda.IFunctionUrl): string {
  const parent = url.node.scope;
  return parent instanceof lambda.FunctionBase ? parent.node.id : url.node.id;
}
