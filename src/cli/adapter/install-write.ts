// What `<agent> install --write` writes, in order: the copy (created new the first time, replaced
// after), the backup of the file as it was (the first time only: `<file>.bak`), then the file with
// its hooks rewritten, renamed into place. Every file is checked before any is written
// (install-files.ts: never through a link, never over a file with other content).
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  refuseLinkedDir,
  refuseLinkedFile,
  replaceFile,
  writeNewFiles,
} from '../claude-code/install-files.js';

export interface InstallWrite {
  /** The agent's file (real path), its new text, and its text as read. */
  readonly path: string;
  readonly text: string;
  readonly before: string;
  readonly copyPath: string;
  readonly copyText: string;
  /** The first install of this file (else the copy is replaced and no backup is made). */
  readonly first: boolean;
}

export function writeInstall(w: InstallWrite): void {
  refuseLinkedDir(dirname(w.path));
  refuseLinkedFile(w.path, 'the file it rewrites');
  const mode = statSync(w.path).mode & 0o777;
  if (w.first)
    writeNewFiles(
      [
        {
          path: w.copyPath,
          content: w.copyText,
          hint: ' (left by an earlier install? `uninstall` removes it), or name another file with --hooks-file',
        },
        { path: `${w.path}.bak`, content: Buffer.from(w.before), hint: ' (a backup of an earlier install?)' },
      ],
      mode,
    );
  else replaceFile(w.copyPath, w.copyText, mode);
  replaceFile(w.path, w.text, mode);
}
