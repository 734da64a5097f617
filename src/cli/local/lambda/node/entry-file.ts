/**
 * The file a function's runtime host process or environment thread starts from: the compiled
 * `.js` next to this module, or a bundle of the `.ts` in tests (../../common/entry-file.ts).
 */
import { entryFileIn } from '../../common/entry-file';

/** Absolute path of a JavaScript file to start for module `name` of this folder (`host`, `runtime`). */
export function entryFile(name: string): string {
  return entryFileIn(__dirname, name);
}
