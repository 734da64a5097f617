/** A stack artifact for tests of the template readers: stack `Backend` in eu-west-1, no files behind it. */
import type { StackArtifact } from '../../../../src/cli/local/template/stack-template';

export const BACKEND_ARTIFACT: StackArtifact = {
  artifactId: 'Backend',
  stackName: 'Backend',
  displayName: 'Backend',
  region: 'eu-west-1',
  templateFile: '/dev/null',
  assemblyDir: '/dev/null',
  tags: {},
  constructPaths: new Map(),
};
