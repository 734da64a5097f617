/**
 * Files editors and tools write beside the one being saved, which are never a change to the
 * project: swap and backup files (vim's `.x.swp`, `x~` and its `4913` write test, emacs's `#x#`
 * and `.#x` lock links), JetBrains' safe-write copies, LibreOffice's locks and `.tmp` files.
 */
const EDITOR_FILE = [
  /\.sw[a-p]$/, // vim swap files (.swp, .swo, ...)
  /\.swx$/,
  /~$/, // backups (vim, emacs, gedit)
  /^4913$/, // vim's check that the folder is writable
  /^#.*#$/, // emacs auto-save
  /^\.#/, // emacs lock links
  /___jb_(?:tmp|old|bak)___$/, // JetBrains safe write
  /^\.~lock\..*#$/, // LibreOffice locks
  /\.tmp$/i,
  /^\.DS_Store$/,
];

/** Whether a file's name (its last path segment) is an editor's or a tool's scratch file. */
export function isEditorScratch(relativePath: string): boolean {
  const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
  return EDITOR_FILE.some((pattern) => pattern.test(name));
}
