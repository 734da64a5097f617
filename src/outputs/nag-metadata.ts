import { CfnResource } from 'aws-cdk-lib';

/** One cdk-nag suppression, in the form cdk-nag reads from resource Metadata. */
export interface NagSuppression {
  readonly id: string;
  readonly reason: string;
}

/**
 * Records cdk-nag suppressions on `resource` through its `cdk_nag` Metadata, the format
 * cdk-nag's `NagSuppressions.addResourceSuppressions` writes, so the library needs no
 * runtime dependency on cdk-nag. Existing suppressions are kept.
 */
export function addNagSuppressions(resource: CfnResource, suppressions: NagSuppression[]): void {
  const existing = (resource.getMetadata('cdk_nag')?.rules_to_suppress ?? []) as NagSuppression[];
  const ids = new Set(existing.map((s) => s.id));
  const added = suppressions.filter((s) => !ids.has(s.id)).map((s) => ({ reason: s.reason, id: s.id }));
  resource.addMetadata('cdk_nag', { rules_to_suppress: [...existing, ...added] });
}
