/** Where the CDK app being served lives, which runtime families look around (its `node_modules`). */
import * as fs from 'fs';
import * as path from 'path';

/** The CDK app's folder: the nearest folder holding cdk.json at or above the assembly, else `cwd`. */
export function appFolderOf(assemblyDir: string, cwd: string): string {
  let dir = path.resolve(assemblyDir);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'cdk.json'))) {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      return path.resolve(cwd);
    }
    dir = parent;
  }
}
