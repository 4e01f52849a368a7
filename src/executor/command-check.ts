// `validate`'s check of a command hook's program, judged the way the shell that runs it will: the
// file's shell (bash for Claude Code files, /bin/sh for hookwarden's), its builtins and keywords
// (`exit`, `[[`, `cd` are no programs), `~/` and the variables it expands ($HOME, $CLAUDE_PROJECT_DIR,
// $CLAUDE_PLUGIN_ROOT, $CLAUDE_PLUGIN_DATA), the PATH the hook gets (the host's for a Claude Code
// hook in process mode), and for exec form the placeholders Claude Code fills in each argument.
// Anything it cannot judge (another variable, a glob, a substitution) is not reported.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { INTERPRETER, SCRIPT } from '../config/command-spec.js';
import { DEFAULTS } from '../config/defaults.js';
import type { Diagnostic } from '../config/diagnostics.js';
import { CLAUDE_CODE_HOST_ENV } from '../dispatch/command-hook.js';
import type { HookDefinition } from '../registry/hook-definition.js';

type Problem = Pick<Diagnostic, 'severity' | 'message' | 'skipped'>;

/** Builtins and reserved words of POSIX sh: never looked up as programs. */
const SH_BUILTINS = new Set(
  `! { } ( case do done elif else esac fi for if in then until while . : [ alias bg break cd command continue echo eval exec exit export false fg getopts hash jobs kill printf pwd read readonly return set shift test times trap true type ulimit umask unalias unset wait`.split(
    ' ',
  ),
);
/** What bash adds. */
const BASH_BUILTINS = new Set([
  ...SH_BUILTINS,
  ...`[[ ]] function select time coproc source builtin caller compgen complete declare dirs disown enable help history let local logout mapfile popd pushd readarray shopt suspend typeset`.split(
    ' ',
  ),
]);

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;
/** Leading NAME=value words, then the program word (quoted or bare). */
const FIRST_WORD =
  /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s;&|]*)\s+)*("[^"]*"|'[^']*'|[^\s;&|()<>`]+)\s*(\S+)?/;

interface Scene {
  readonly root: string;
  readonly vars: Readonly<Record<string, string | undefined>>;
  readonly path: readonly string[];
  readonly builtins: ReadonlySet<string>;
  readonly shellName: string;
}

function sceneOf(hook: HookDefinition & { type: 'command' }, root: string): Scene {
  const c = hook.command;
  const claude = hook.dialect === 'claude-code';
  const hostEnv = claude && c.isolation === 'process';
  const envPath = c.env.PATH;
  const hostPath = hostEnv && CLAUDE_CODE_HOST_ENV.includes('PATH') ? (process.env.PATH ?? '') : '';
  const path = [...(envPath ?? DEFAULTS.command.path).split(':'), ...hostPath.split(':')].filter(
    (d) => d !== '',
  );
  const shell = c.program.kind === 'shell' ? (c.program.shell ?? 'sh') : 'sh';
  return {
    root,
    vars: {
      HOME: hostEnv ? process.env.HOME : undefined,
      CLAUDE_PROJECT_DIR: root,
      CLAUDE_PLUGIN_ROOT: c.pluginRoot,
      CLAUDE_PLUGIN_DATA: c.pluginData,
    },
    path,
    builtins: shell === 'bash' ? BASH_BUILTINS : SH_BUILTINS,
    shellName: shell === 'bash' ? 'bash' : '/bin/sh',
  };
}

/** A word with its quotes, `~/` and known variables expanded; undefined when that cannot be known. */
function expand(word: string, scene: Scene, tilde: boolean): string | undefined {
  let w = word.startsWith("'") ? word.slice(1, -1) : word.replaceAll('"', '');
  if (word.startsWith("'")) return w;
  if (tilde && (w === '~' || w.startsWith('~/'))) {
    if (scene.vars.HOME === undefined) return undefined;
    w = scene.vars.HOME + w.slice(1);
  }
  let unknown = false;
  w = w.replace(VARIABLE, (_all, braced?: string, bare?: string) => {
    const value = scene.vars[(braced ?? bare)!];
    if (value === undefined) unknown = true;
    return value ?? '';
  });
  if (unknown || /[$`*?[\\]/.test(w)) return undefined;
  return w;
}

function missing(what: string, file: string, scene: Scene): Problem | undefined {
  const abs = isAbsolute(file) ? file : resolve(scene.root, file);
  if (existsSync(abs)) return undefined;
  return {
    severity: 'error',
    message: `the command's ${what} ${file} does not exist${abs === file ? '' : ` (from the sandbox root ${scene.root}: ${abs})`}; the hook would fail${what === 'program' ? ' with spawn_failed' : ''}`,
    skipped: false,
  };
}

function onPath(program: string, scene: Scene): Problem | undefined {
  if (scene.path.some((d) => existsSync(join(d, program)))) return undefined;
  return {
    severity: 'warning',
    message: `"${program}" is not on a command hook's PATH (${scene.path.join(':')}) nor a ${scene.shellName} builtin, unless the hook's env sets PATH; the hook would fail with spawn_failed`,
    skipped: false,
  };
}

function shellProblem(command: string, scene: Scene): Problem | undefined {
  const m = FIRST_WORD.exec(command);
  if (m === null) return undefined;
  const raw = m[1]!;
  if (scene.builtins.has(raw)) return undefined;
  if (raw === '[[' && scene.shellName === '/bin/sh')
    return {
      severity: 'warning',
      message: '"[[" is not a /bin/sh command (dash has no [[ ]]): write [ ] or set "shell": "bash"',
      skipped: false,
    };
  const program = expand(raw, scene, true);
  if (program === undefined || program === '') return undefined;
  if (program.includes('/')) return missing('program', program, scene);
  const problem = onPath(program, scene);
  if (problem !== undefined || !INTERPRETER.test(program) || m[2] === undefined) return problem;
  // `python3 "$CLAUDE_PLUGIN_ROOT"/hooks/guard.py`: the script must be there too.
  const script = expand(m[2], scene, true);
  if (script === undefined || !script.includes('/') || !SCRIPT.test(script)) return undefined;
  return missing('script', script, scene);
}

function argvProblem(argv: readonly string[], scene: Scene, claude: boolean): Problem | undefined {
  // Claude Code fills the braced placeholders in each element; nothing else is expanded (no shell).
  const fill = (w: string) =>
    claude
      ? w.replace(
          /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g,
          (all, n: string) => scene.vars[n] ?? all,
        )
      : w;
  const [first, ...rest] = argv.map(fill);
  if (first === undefined || first.includes('$')) return undefined;
  const problem = first.includes('/') ? missing('program', first, scene) : onPath(first, scene);
  if (problem !== undefined) return problem;
  for (const arg of rest) {
    if (arg.includes('$') || !arg.includes('/') || !SCRIPT.test(arg) || arg.startsWith('-')) continue;
    const found = missing('argument', arg, scene);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The files a command hook runs that can be named here (its program if it is a file, its script). */
export function commandFiles(hook: HookDefinition, root: string): string[] {
  if (hook.type !== 'command') return [];
  const scene = sceneOf(hook, root);
  const program = hook.command.program;
  const words: string[] = [];
  if (program.kind === 'shell') {
    const m = FIRST_WORD.exec(program.command);
    if (m === null) return [];
    const first = expand(m[1]!, scene, true);
    if (first !== undefined) words.push(first);
    if (first !== undefined && INTERPRETER.test(first) && m[2] !== undefined) {
      const script = expand(m[2], scene, true);
      if (script !== undefined) words.push(script);
    }
  } else {
    const fill = (w: string) =>
      w.replace(
        /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g,
        (all, n: string) => scene.vars[n] ?? all,
      );
    words.push(...program.argv.map(fill).filter((w) => !w.includes('$') && !w.startsWith('-')));
  }
  return words
    .filter((w) => w.includes('/') || SCRIPT.test(w))
    .map((w) => (isAbsolute(w) ? w : resolve(scene.root, w)))
    .filter((f) => existsSync(f));
}

/** Where a command hook's program (or the script it runs) cannot be found; undefined when fine or unknowable. */
export function commandProblem(hook: HookDefinition, root: string): Problem | undefined {
  if (hook.type !== 'command') return undefined;
  const scene = sceneOf(hook, root);
  const program = hook.command.program;
  return program.kind === 'shell'
    ? shellProblem(program.command, scene)
    : argvProblem(program.argv, scene, hook.dialect === 'claude-code');
}
