/**
 * The page's static files: a fixed list of names, read once when the server starts and served from
 * memory. A request names an entry of this list or gets a 404; no part of a request ever reaches
 * the file system.
 */
import * as fs from 'fs';
import * as path from 'path';
import { LocalApiError } from '../../common/local-api-error';

/** A file of the page, ready to send. */
export interface ConsoleFile {
  readonly contentType: string;
  readonly body: Buffer;
}

/** Request path under `/@console/` → file of static/console/ (`''` is the page itself). */
const FILES: ReadonlyArray<readonly [string, string, string]> = [
  ['', 'index.html', 'text/html; charset=utf-8'],
  ['console.css', 'console.css', 'text/css; charset=utf-8'],
  ['console.js', 'console.js', 'text/javascript; charset=utf-8'],
];

/** static/console/ of the package: four levels up from src/cli/local/console (and lib/cli/local/console). */
const DIRECTORY = path.join(__dirname, '..', '..', '..', '..', '..', 'static', 'console');

/** Reads every file of the page; a missing file is an installation problem, named with its path. */
export function loadConsoleFiles(directory: string = DIRECTORY): ReadonlyMap<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  for (const [name, file, contentType] of FILES) {
    const location = path.join(directory, file);
    try {
      files.set(name, { contentType, body: fs.readFileSync(location) });
    } catch (error) {
      throw new LocalApiError(`the console page's file ${location} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); reinstall cdk-vendor-outputs`);
    }
  }
  return files;
}
