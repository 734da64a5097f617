/**
 * `cdk.json`'s `watch.include` / `watch.exclude` applied to a changed file, with `cdk watch`'s
 * meaning: patterns are relative to the project root, `*` stays inside one path segment, `**`
 * spans any number of them, and a pattern that names a folder covers everything inside it (the
 * CDK CLI's watcher does not enter an excluded folder, and watches all of an included one).
 */
import { WatchPatterns } from './cdk-project';

export class WatchFilter {
  private readonly include: RegExp[];
  private readonly exclude: RegExp[];

  constructor(patterns: WatchPatterns) {
    this.include = patterns.include.map(globToRegExp);
    this.exclude = patterns.exclude.map(globToRegExp);
  }

  /** Whether a change to `relativePath` (`/`-separated, from the project root) is watched. */
  matches(relativePath: string): boolean {
    const prefixes = pathPrefixes(relativePath);
    if (prefixes.length === 0) {
      return false;
    }
    const any = (list: RegExp[]) => prefixes.some((p) => list.some((r) => r.test(p)));
    return any(this.include) && !any(this.exclude);
  }

  /** Whether `relativePath` or a folder above it is excluded (the watcher does not enter it). */
  excluded(relativePath: string): boolean {
    return pathPrefixes(relativePath).some((p) => this.exclude.some((r) => r.test(p)));
  }
}

/** `a/b/c` → `a`, `a/b`, `a/b/c`: a folder's pattern covers what is inside it. */
function pathPrefixes(relativePath: string): string[] {
  const segments = relativePath.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  return segments.map((_, i) => segments.slice(0, i + 1).join('/'));
}

/** A glob as an anchored regular expression over `/`-separated relative paths. */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      const slashAfter = pattern[i + 2] === '/';
      const slashBefore = i === 0 || pattern[i - 1] === '/';
      if (slashBefore && slashAfter) {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else {
      out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`);
}
