/**
 * Watches the project's files and reports changes in batches: each folder that is not excluded
 * gets its own (non-recursive) `fs.watch`, so excluded trees such as node_modules are never
 * walked, and folders created later are added as they appear. Changes that come within the
 * debounce window are reported together (an editor's save is often several events). Only paths
 * that exist, or that existed before and were deleted, are reported: a file created and gone
 * within the batch (`sed -i`'s temporary copy renamed over the original) and editors' scratch
 * files (editor-files.ts) are not.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isEditorScratch } from './editor-files';
import { WatchFilter } from './watch-patterns';

export const DEBOUNCE_MS = 100;

export interface WatcherOptions {
  readonly root: string;
  readonly filter: WatchFilter;
  /** Called with the changed paths (relative, `/`-separated, sorted) once the burst is over. */
  readonly onChange: (files: string[]) => void;
  /** Watch folders below the root too. @default true */
  readonly recursive?: boolean;
  readonly debounceMs?: number;
}

export class ProjectWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly pending = new Set<string>();
  /** Relative paths known to exist (listed at start or seen since): a deletion of one is a change. */
  private readonly known = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: WatcherOptions) {
    this.watchFolder(options.root);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) {
      watcher.close();
    }
    this.watchers.clear();
  }

  private watchFolder(dir: string): void {
    const relative = this.relative(dir);
    if (this.closed || this.watchers.has(dir) || (relative !== '' && this.options.filter.excluded(relative))) {
      return;
    }
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: true }, (_event, name) => this.onEvent(dir, name));
    } catch {
      return; // gone or unreadable since it was listed
    }
    watcher.on('error', () => this.forget(dir));
    this.watchers.set(dir, watcher);
    if (this.options.recursive === false) {
      return;
    }
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      this.known.add(this.relative(path.join(dir, entry.name)));
      if (entry.isDirectory()) {
        this.watchFolder(path.join(dir, entry.name));
      }
    }
  }

  private forget(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private onEvent(dir: string, name: string | Buffer | null): void {
    if (this.closed) {
      return;
    }
    if (name === null) {
      // The platform did not say which entry changed: count the folder itself.
      this.record(this.relative(dir));
      return;
    }
    const full = path.join(dir, name.toString());
    if (this.options.recursive !== false && !this.watchers.has(full) && isFolder(full)) {
      this.watchFolder(full);
    } else if (this.watchers.has(full) && !fs.existsSync(full)) {
      this.forget(full);
    }
    this.record(this.relative(full));
  }

  private record(relative: string): void {
    if (relative === '' || isEditorScratch(relative) || !this.options.filter.matches(relative)) {
      return;
    }
    this.pending.add(relative);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.options.debounceMs ?? DEBOUNCE_MS);
  }

  private flush(): void {
    const files = [...this.pending].filter((file) => this.happened(file)).sort();
    this.pending.clear();
    if (files.length > 0 && !this.closed) {
      this.options.onChange(files);
    }
  }

  /** Whether a path in the batch is a change: it exists now, or it existed before and is gone. */
  private happened(relative: string): boolean {
    if (fs.existsSync(path.join(this.options.root, relative))) {
      this.known.add(relative);
      return true;
    }
    return this.known.delete(relative);
  }

  private relative(full: string): string {
    return path.relative(this.options.root, full).split(path.sep).join('/');
  }
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
