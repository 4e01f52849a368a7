// `doctor`'s check of hookwarden-client: whether `<agent> install` can write it (it was built, its
// daemon can check its peers), whether it runs, and where its daemons live.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nativeClientCommand } from '../claude-code/daemon/client-command.js';
import { daemonSockets } from '../claude-code/daemon/control.js';
import { daemonDir, daemonDirProblem } from '../claude-code/daemon/places.js';

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

/** `<build>/native/<name>` as `<checkout>/dist/native/<name>` when dist names that build. */
function installedPath(path: string): string {
  const viaDist = join(dirname(dirname(dirname(path))), 'dist', 'native', basename(path));
  try {
    return realpathSync(viaDist) === realpathSync(path) ? viaDist : path;
  } catch {
    return path;
  }
}

/** Whether `<agent> install` can write hookwarden-client, and where its daemons live. */
export function clientCheck(): Check {
  const name = 'hookwarden-client';
  const built = nativeClientCommand();
  // Named as install writes it: through the installation's dist link, not the build it points at.
  const client = 'why' in built ? built : { path: installedPath(built.path) };
  if ('why' in client)
    return {
      name,
      ok: false,
      detail: `\`<agent> install\` writes the Node adapter command (every hook call starts Node, ~60-80 ms): ${client.why}`,
      fix: 'install a C compiler (apt-get install -y gcc) and run `npm run build`, then `<agent> install` again',
    };
  const probe = spawnSync(
    client.path,
    ['--print-socket', process.execPath, process.argv[1] ?? '', 'claude-code', '--config', '/'],
    { encoding: 'utf8' },
  );
  if (probe.status !== 0)
    return {
      name,
      ok: false,
      detail: `${client.path} does not run (${probe.error?.message ?? probe.stderr.trim()})`,
      fix: 'run `npm run build` again',
    };
  const dir = daemonDir();
  const problem = existsSync(dir) ? daemonDirProblem(dir) : undefined;
  if (problem !== undefined)
    return {
      name,
      ok: false,
      detail: `hookwarden-client is built, but every call runs in process: ${problem}`,
      fix: `remove ${dir} (a daemon creates it again, mode 700) or set XDG_RUNTIME_DIR to a directory of yours`,
    };
  return {
    name,
    ok: true,
    detail: `hookwarden-client (${client.path}): hook calls go to a per-user daemon, sockets in ${dir} (${daemonSockets(dir).length} now)`,
  };
}
