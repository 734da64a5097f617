/**
 * Node.js executables of other majors, for the tests that run the compiled CLI on each Node.js the
 * package supports. They come the way the CLI gets the Node.js of a function's runtime
 * (src/cli/local/lambda/node/node-binaries.ts): Node.js's official build from the npm registry,
 * kept in the CLI's own per-user cache, so a machine downloads each major once for both.
 */
import { spawnSync } from 'child_process';
import { cacheRoot, chooseNodeBinaries, hostNode, majorOf, nodeBinaryFor } from '../../src/cli/local/lambda/node/node-binaries';

/** A Node.js executable and the version it reports (`v24.21.0`). */
export interface NodeExecutable {
  readonly path: string;
  readonly version: string;
}

/**
 * The Node.js of `major`: this process's when it is of that major, else the official build from
 * the CLI's cache, fetched there first when missing (which blocks, up to minutes on a slow link).
 * Throws, saying why, when it cannot be had: these tests must fail, not pass unchecked, without it.
 */
export function nodeOfMajor(major: number): NodeExecutable {
  if (majorOf(hostNode().version) === major) {
    return hostNode();
  }
  const fallbacks = chooseNodeBinaries([major], 'runtime', process.env, () => undefined);
  const reason = fallbacks.get(major);
  if (reason !== undefined) {
    throw new Error(`These tests run the CLI on Node.js ${major}, which comes from the npm registry into ${cacheRoot(process.env)}, but: ${reason}`);
  }
  const binary = nodeBinaryFor(major);
  const reported = spawnSync(binary.path, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (majorOf(reported) !== major) {
    throw new Error(`${binary.path} reports ${JSON.stringify(reported)}, not Node.js ${major}`);
  }
  return { path: binary.path, version: reported };
}
