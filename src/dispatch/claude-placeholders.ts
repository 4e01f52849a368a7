// Claude Code's exec form (`command` + `args`, no shell): `${CLAUDE_PROJECT_DIR}`,
// `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` are replaced in the program and in each
// argument, as Claude Code 2.1.333 does (only the braced form: no shell reads `$NAME` there). A shell
// command gets the same values as variables, which the shell expands itself.
//
// Outside a plugin Claude Code refuses to run a hook that names `${CLAUDE_PLUGIN_DATA}` (it has no
// data folder); so does hookwarden. `${CLAUDE_PLUGIN_ROOT}` there is the file's own directory, the
// value its variable has (Claude Code refuses that too: a documented difference).
import type { CommandHookSpec } from '../registry/hook-definition.js';

/** `${NAME}`, the form Claude Code fills in. */
const braced = (name: string) => `\${${name}}`;
const PROJECT_DIR = braced('CLAUDE_PROJECT_DIR');
const PLUGIN_ROOT = braced('CLAUDE_PLUGIN_ROOT');
const PLUGIN_DATA = braced('CLAUDE_PLUGIN_DATA');

export interface PlaceholderValues {
  readonly projectDir: string;
  readonly pluginRoot: string;
  readonly pluginData: string | undefined;
}

/** Why the hook cannot run (a placeholder without a value), or undefined. */
export function missingPlaceholder(
  program: CommandHookSpec['program'],
  values: PlaceholderValues,
): string | undefined {
  const words = program.kind === 'argv' ? program.argv : [program.command];
  if (values.pluginData === undefined && words.some((w) => w.includes(PLUGIN_DATA)))
    return `the hook refers to ${PLUGIN_DATA}, which only a plugin's hooks have (a plugin's hooks/hooks.json, not a settings file); it was not run`;
  return undefined;
}

/** One word with the braced placeholders replaced. */
function substituteWord(word: string, values: PlaceholderValues): string {
  if (!word.includes('$')) return word;
  let out = word.replaceAll(PROJECT_DIR, () => values.projectDir);
  out = out.replaceAll(PLUGIN_ROOT, () => values.pluginRoot);
  if (values.pluginData !== undefined) out = out.replaceAll(PLUGIN_DATA, () => values.pluginData!);
  return out;
}

/** An exec-form program with its placeholders replaced (a shell program is returned as it is). */
export function substitutePlaceholders(
  program: CommandHookSpec['program'],
  values: PlaceholderValues,
): CommandHookSpec['program'] {
  if (program.kind !== 'argv') return program;
  return { kind: 'argv', argv: program.argv.map((w) => substituteWord(w, values)) };
}
