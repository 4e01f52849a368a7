// `${CLAUDE_PLUGIN_ROOT}`: the root of the Claude Code plugin a hooks file belongs to. A plugin is laid
// out as `plug/.claude-plugin/plugin.json` with its hooks in `plug/hooks/hooks.json` (or wherever its
// manifest points), so the root is the nearest directory at or above the file's that holds
// `.claude-plugin/plugin.json`. A file outside any plugin (a settings.json) gets its own directory.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { recordExists } from './read-log.js';

/** How far up a hooks file may sit below its plugin's root. */
const MAX_LEVELS = 8;

const isFile = (path: string): boolean => {
  let file = false;
  try {
    file = statSync(path).isFile();
  } catch {
    // not there: the same as not a file
  }
  recordExists(path, file); // a manifest created later moves the root: a daemon's load is then stale
  return file;
};

/** The plugin root of a config file in `configDir` (absolute), or `configDir` itself. */
export function findPluginRoot(configDir: string): string {
  let dir = configDir;
  for (let level = 0; level <= MAX_LEVELS; level++) {
    if (isFile(join(dir, '.claude-plugin', 'plugin.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return configDir;
}
