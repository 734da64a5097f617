import { github } from 'projen';

/**
 * The release workflow's job that publishes cdk-vendor-outputs-client: projen's release_npm job
 * publishes the library's tarball (dist/js/), this one the client's (dist/client/), both packed
 * by the same `npx projen release` run, so both carry the version that run bumped to. Same
 * conditions as projen's publishing jobs (a new tag, the workflow's commit is still the branch's
 * head), same registry settings (provenance, NPM_TOKEN, the dry-run input).
 */
export function clientReleaseJob(nodeVersion: string): github.workflows.Job {
  return {
    name: 'Publish cdk-vendor-outputs-client to npm',
    needs: ['release'],
    runsOn: ['ubuntu-latest'],
    permissions: { idToken: github.workflows.JobPermission.WRITE, contents: github.workflows.JobPermission.READ },
    if: "needs.release.outputs.tag_exists != 'true' && needs.release.outputs.latest_commit == github.sha",
    tools: { node: { version: nodeVersion } },
    steps: [
      github.WorkflowSteps.downloadArtifact({
        name: 'Download build artifacts',
        with: { artifactIds: ['${{ needs.release.outputs.artifact_id }}'], path: 'dist' },
      }),
      {
        name: 'Release',
        env: {
          NPM_DIST_TAG: 'latest',
          NPM_REGISTRY: 'registry.npmjs.org',
          NPM_CONFIG_PROVENANCE: 'true',
          NPM_TOKEN: '${{ secrets.NPM_TOKEN }}',
          PUBLIB_DRYRUN: '${{ inputs.dry_run }}',
        },
        run: 'npx -p publib@latest publib-npm dist/client',
      },
    ],
  };
}
