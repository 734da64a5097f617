/**
 * Authorization `AWS_IAM`: a SigV4 signature made with the server's key pair (iam.ts). Its
 * methods name no authorizer resource.
 */
import type { AuthorizerKind } from './authorizer-kind';
import { authorizeIam } from './iam';

export const iamKind: AuthorizerKind = {
  authorizationType: 'AWS_IAM',
  authorizerTypes: [],
  describe: () => 'AWS_IAM',
  authorize: authorizeIam,
};
