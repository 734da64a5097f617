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

/**
 * The release workflow's job that attaches both tarballs to the GitHub release projen's
 * release_github job creates, so that `npm install <release asset URL>` works before (and besides)
 * the registry. The library's tarball is renamed as `npm pack` names it (jsii-pacmak's name has an
 * `@`, which GitHub rewrites in asset names).
 */
export function releaseAssetsJob(nodeVersion: string): github.workflows.Job {
  return {
    name: 'Attach the tarballs to the GitHub release',
    needs: ['release', 'release_github'],
    runsOn: ['ubuntu-latest'],
    permissions: { contents: github.workflows.JobPermission.WRITE },
    if: "needs.release.outputs.tag_exists != 'true' && needs.release.outputs.latest_commit == github.sha && !inputs.dry_run",
    tools: { node: { version: nodeVersion } },
    steps: [
      github.WorkflowSteps.downloadArtifact({
        name: 'Download build artifacts',
        with: { artifactIds: ['${{ needs.release.outputs.artifact_id }}'], path: 'dist' },
      }),
      {
        name: 'Upload',
        env: { GITHUB_TOKEN: '${{ secrets.GITHUB_TOKEN }}' },
        run: [
          'tag=$(cat dist/releasetag.txt) && version=$(cat dist/version.txt) &&',
          'cp dist/js/cdk-vendor-outputs@$version.jsii.tgz cdk-vendor-outputs-$version.tgz &&',
          'gh release upload "$tag" cdk-vendor-outputs-$version.tgz dist/client/cdk-vendor-outputs-client-$version.tgz --clobber -R "$GITHUB_REPOSITORY"',
        ].join('\n'),
      },
    ],
  };
}
