/** The name a template's Lambda function runs under locally. */

/** The function's name: its `FunctionName` when literal, else the name CloudFormation would give it. */
export function functionNameOf(stack: { readonly stackName: string }, logicalId: string, resource: any): string {
  const name = resource?.Properties?.FunctionName;
  return typeof name === 'string' ? name : `${stack.stackName}-${logicalId}`;
}
