/**
 * Reads the shell command aws-cdk-lib's `NodejsFunction` runs to bundle a function locally
 * (aws-lambda-nodejs/lib/bundling.ts `createBundlingCommand`: `npx --no-install esbuild --bundle
 * "<entry>" --target=node20 --platform=node --outfile="<dir>/index.js" --external:@aws-sdk/* ...`)
 * into esbuild's build options, so that the sandbox can run the same build through esbuild's
 * JavaScript API. Only a command that is one esbuild run with flags this reader knows is read:
 * command hooks, `nodeModules` installs, pre-compilation or unknown flags make it undefined, and
 * such a function is rebuilt by a synth instead.
 */
import type { BuildOptions } from 'esbuild';

/** One esbuild run read from a bundling command. */
export interface EsbuildInvocation {
  /** The options, as given on the command line (outfile absolute against `cwd` later). */
  readonly options: BuildOptions;
  readonly outfile: string;
}

/** How package managers run a locally installed binary (PackageManager.runBinCommand). */
const RUNNER_PREFIXES = [[], ['npx', '--no-install'], ['npx'], ['yarn', 'run'], ['yarn'], ['pnpm', 'exec'], ['bun', 'run']];

/** The esbuild run of `command`, or undefined when it is anything more or other than one. */
export function readEsbuildCommand(command: string): EsbuildInvocation | undefined {
  const words = shellWords(command);
  if (words === undefined || words.includes('&&')) {
    return undefined;
  }
  const at = words.findIndex((word) => word === 'esbuild' || word.endsWith('/esbuild'));
  if (at < 0 || !RUNNER_PREFIXES.some((prefix) => sameWords(prefix, words.slice(0, at)))) {
    return undefined;
  }
  return readFlags(words.slice(at + 1));
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}

/** esbuild's command-line flags as the construct writes them, into build options. */
function readFlags(flags: readonly string[]): EsbuildInvocation | undefined {
  const options: Record<string, any> = {};
  const entryPoints: string[] = [];
  const list = (key: string, value: string) => { options[key] = [...(options[key] ?? []), value]; };
  const record = (key: string, name: string, value: string) => { options[key] = { ...(options[key] ?? {}), [name]: value }; };
  for (const flag of flags) {
    const [name, value] = splitFlag(flag);
    if (!flag.startsWith('-')) {
      entryPoints.push(flag);
    } else if (BOOLEAN_FLAGS[name] !== undefined && value === undefined) {
      options[BOOLEAN_FLAGS[name]] = true;
    } else if (STRING_FLAGS[name] !== undefined && value !== undefined) {
      options[STRING_FLAGS[name]] = value;
    } else if (name === '--target' && value !== undefined) {
      options.target = value.split(',');
    } else if (name === '--main-fields' && value !== undefined) {
      options.mainFields = value.split(',');
    } else if (name === '--sourcemap') {
      options.sourcemap = value === undefined ? true : value;
    } else if (name === '--sources-content' && (value === 'true' || value === 'false')) {
      options.sourcesContent = value === 'true';
    } else if (name === '--metafile' && value !== undefined) {
      options.metafileOut = value;
    } else if (name.startsWith('--external:')) {
      list('external', name.slice('--external:'.length));
    } else if (name.startsWith('--inject:')) {
      list('inject', name.slice('--inject:'.length));
    } else if (name.startsWith('--loader:') && value !== undefined) {
      record('loader', name.slice('--loader:'.length), value);
    } else if (name.startsWith('--define:') && value !== undefined) {
      record('define', name.slice('--define:'.length), value);
    } else if ((name === '--banner:js' || name === '--footer:js') && value !== undefined) {
      record(name === '--banner:js' ? 'banner' : 'footer', 'js', value);
    } else {
      return undefined;
    }
  }
  const outfile = options.outfile;
  delete options.metafileOut;
  if (entryPoints.length !== 1 || typeof outfile !== 'string') {
    return undefined;
  }
  return { options: { ...options, entryPoints }, outfile };
}

const BOOLEAN_FLAGS: Record<string, string> = { '--bundle': 'bundle', '--minify': 'minify', '--keep-names': 'keepNames' };
const STRING_FLAGS: Record<string, string> = {
  '--platform': 'platform',
  '--format': 'format',
  '--outfile': 'outfile',
  '--log-level': 'logLevel',
  '--tsconfig': 'tsconfig',
  '--charset': 'charset',
};

/** `--name=value` (the first `=`; `--loader:.png=file` has its own) or `--name`. */
function splitFlag(flag: string): [string, string | undefined] {
  const colon = flag.indexOf(':');
  const eq = flag.indexOf('=', colon < 0 ? 0 : colon);
  return eq < 0 ? [flag, undefined] : [flag.slice(0, eq), flag.slice(eq + 1)];
}

/**
 * The words of a plain shell command as bash splits them: blanks, single quotes, double quotes
 * (backslash escapes `"`, `\`, `$` and backtick there) and backslashes; `&&` as a word of its
 * own. Undefined for anything else the shell would interpret (expansions, pipes, redirections).
 */
export function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== undefined) {
        words.push(word);
        word = undefined;
      }
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) {
        return undefined;
      }
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && '"\\$`'.includes(command[i + 1])) {
          i++;
        } else if (command[i] === '$' || command[i] === '`') {
          return undefined;
        }
        text += command[i];
      }
      if (i >= command.length) {
        return undefined;
      }
      word = (word ?? '') + text;
    } else if (c === '\\' && i + 1 < command.length) {
      word = (word ?? '') + command[++i];
    } else if (c === '&' && command[i + 1] === '&' && word === undefined) {
      words.push('&&');
      i++;
    } else if ('$`|;<>()&*?[]{}~#'.includes(c) && !(c === '*' && word !== undefined)) {
      return undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) {
    words.push(word);
  }
  return words;
}
