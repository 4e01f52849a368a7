// `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}`: the root of the Claude Code plugin a hooks file
// belongs to, and the plugin's data folder. A plugin is laid out as `plug/.claude-plugin/plugin.json`
// with its hooks in `plug/hooks/hooks.json` (or wherever its manifest points), so the root is the
// nearest directory at or above the file's that holds `.claude-plugin/plugin.json`. A file outside
// any plugin (a settings.json) gets its own directory as root and no data folder.
//
// The data folder is Claude Code's (2.1.333): `<config dir>/plugins/data/<plugin id>`, the id
// `name@marketplace` with every character but letters, digits, `-` and `_` made `-`. A plugin
// installed from a marketplace sits in `<config dir>/plugins/cache/<marketplace>/<name>/<version>`;
// any other (Claude Code's `--plugin-dir`) is `name@inline`, the name from its plugin.json.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { recordExists, recordFileRead } from './read-log.js';

/** How far up a hooks file may sit below its plugin's root. */
const MAX_LEVELS = 8;
/** A plugin.json larger than this is not read for its name. */
const MAX_MANIFEST_BYTES = 256 * 1024;

export interface PluginInfo {
  /** CLAUDE_PLUGIN_ROOT: the plugin's root, or the file's own directory outside a plugin. */
  readonly root: string;
  /** CLAUDE_PLUGIN_DATA: set only for a file that belongs to a plugin. */
  readonly dataDir: string | undefined;
}

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

/** Claude Code's config directory (`CLAUDE_CONFIG_DIR`, else `~/.claude`). */
export function claudeConfigDir(): string {
  const dir = process.env.CLAUDE_CONFIG_DIR;
  return dir !== undefined && dir !== '' ? dir : join(homedir(), '.claude');
}

/** Claude Code's file-name form of a plugin id. */
const sanitizeId = (id: string) => id.replace(/[^a-zA-Z0-9\-_]/g, '-');

function manifestName(root: string): string {
  try {
    const path = join(root, '.claude-plugin', 'plugin.json');
    if (statSync(path).size <= MAX_MANIFEST_BYTES) {
      const bytes = readFileSync(path);
      // Its name names the data folder: a daemon's load is stale once it changes.
      recordFileRead(path, bytes);
      const name = (JSON.parse(bytes.toString('utf8')) as { name?: unknown }).name;
      if (typeof name === 'string' && name !== '') return name;
    }
  } catch {
    // no readable name: the folder's
  }
  return basename(root);
}

/** The plugin id of a plugin rooted at `root`. */
function pluginId(root: string): string {
  const cache = join(claudeConfigDir(), 'plugins', 'cache');
  const rel = relative(cache, root);
  const parts = rel.split(sep);
  // <marketplace>/<name>/<version>
  if (!rel.startsWith('..') && parts.length === 3 && parts.every((p) => p !== '' && p !== '..'))
    return `${parts[1]}@${parts[0]}`;
  return `${manifestName(root)}@inline`;
}

/** The plugin root and data folder of a config file in `configDir` (absolute). */
export function findPlugin(configDir: string): PluginInfo {
  let dir = configDir;
  for (let level = 0; level <= MAX_LEVELS; level++) {
    if (isFile(join(dir, '.claude-plugin', 'plugin.json'))) {
      return { root: dir, dataDir: join(claudeConfigDir(), 'plugins', 'data', sanitizeId(pluginId(dir))) };
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { root: configDir, dataDir: undefined };
}
