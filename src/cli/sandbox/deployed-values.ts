/**
 * `--from-stack NAME` / `--outputs-file FILE`: the values a local synth cannot know (user pool
 * ids, the data URL, bucket names) taken from a deployed stack, while the REST endpoints stay
 * local. The deployed document is rebuilt by the rebuild service, as generate rebuilds it (same
 * checks, same messages), and only the values still pending locally are copied from it, pointer
 * by pointer.
 */
import { getAtPointer, setAtPointer } from '../../outputs/cdk-free/json-pointer';
import type { DeployedSource } from '../local/local-api-settings';
import { LocalOutputs } from '../local/server/local-outputs';
import { rebuild } from '../rebuild/rebuild';

export type { DeployedSource } from '../local/local-api-settings';

/** The deployed document (fetched once: a deployed stack does not change while the sandbox runs). */
export async function readDeployedDocument(source: DeployedSource, assemblyDir: string): Promise<Record<string, unknown>> {
  const location = source.kind === 'stack'
    ? { stack: source.stack, app: assemblyDir }
    : { outputsFile: source.file, stack: source.stack, app: assemblyDir };
  return (await rebuild(location)).document;
}

/** The local document with its pending values filled from `deployed` where it has them. */
export function fillPending(local: LocalOutputs, deployed: Record<string, unknown> | undefined): LocalOutputs {
  if (deployed === undefined || local.unresolved.length === 0) {
    return local;
  }
  const document = JSON.parse(JSON.stringify(local.document));
  const unresolved: string[] = [];
  const resolved = [...local.resolved];
  for (const pointer of local.unresolved) {
    const value = getAtPointer(deployed, pointer);
    if (value === undefined) {
      unresolved.push(pointer);
    } else {
      setAtPointer(document, pointer, value);
      resolved.push(pointer);
    }
  }
  return { ...local, document, resolved, unresolved };
}
