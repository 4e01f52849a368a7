// A JS hook of the size real policy hooks have: about 40 KB, a table of 400 rules (a regular
// expression each, 400 RegExp objects built at load) for Bash commands, file paths and URLs, indexed
// the way policy engines index them (by tool, then by program, top directory or host), so a call
// tests the handful of rules that can apply. Generated deterministically.

const PROGRAMS = [
  'rm',
  'curl',
  'wget',
  'chmod',
  'chown',
  'dd',
  'mkfs',
  'git',
  'npm',
  'pip',
  'docker',
  'kubectl',
  'ssh',
  'scp',
  'nc',
  'sudo',
  'mount',
  'kill',
  'iptables',
  'crontab',
  'systemctl',
  'shutdown',
  'reboot',
  'useradd',
  'passwd',
  'tar',
  'zip',
  'rsync',
  'aws',
  'gcloud',
  'terraform',
  'helm',
  'psql',
  'mysql',
  'redis-cli',
  'mongo',
  'python',
  'node',
  'perl',
  'ruby',
];
const FLAGS = [
  '-rf',
  '--force',
  '-R',
  '777',
  '--no-verify',
  '--privileged',
  '--delete',
  '-9',
  '--hard',
  '-y',
];
const DIRS = ['etc', 'usr', 'var', 'boot', 'root', 'opt', 'srv', 'sys', 'proc', 'dev'];
const GENERIC = [
  String.raw`\|\s*(ba|z|da)?sh\b`,
  String.raw`>\s*\/dev\/sd[a-z]`,
  String.raw`\$\(\s*curl\b`,
  String.raw`base64\s+(-d|--decode)\s*\|`,
  String.raw`\bchmod\s+[0-7]*777\b`,
  String.raw`:\(\)\s*\{\s*:\|:&\s*\};:`,
  String.raw`\/etc\/(shadow|sudoers)\b`,
  String.raw`\bhistory\s+-c\b`,
  String.raw`\bLD_PRELOAD=`,
  String.raw`\beval\s+"\$\(`,
];

function rules(): string[] {
  const out: string[] = [];
  const decision = (i: number) => (i % 5 === 0 ? 'ask' : 'deny');
  for (const [i, p] of GENERIC.entries())
    out.push(`  ['Bash', '*', /${p}/, '${decision(i)}', 'G${i}: generic'],`);
  for (let i = 0; i < 240; i++) {
    const prog = PROGRAMS[i % PROGRAMS.length]!;
    const flag = FLAGS[(i * 7) % FLAGS.length]!;
    const target = DIRS[(i * 3) % DIRS.length]!;
    const re = String.raw`^\s*(sudo\s+)?${prog.replace('-', '\\-')}\b.*\s${flag}\b.*\/${target}\b`;
    out.push(`  ['Bash', '${prog}', /${re}/, '${decision(i)}', 'B${i}: ${prog} ${flag} on /${target}'],`);
  }
  for (let i = 0; i < 90; i++) {
    const tool = ['Write', 'Edit', 'Read'][i % 3]!;
    const dir = DIRS[i % DIRS.length]!;
    const re = String.raw`^\/${dir}\/(.*\/)?(${PROGRAMS[i % PROGRAMS.length]}|conf-${i})(\.d)?(\/|$)`;
    out.push(`  ['${tool}', '${dir}', /${re}/i, '${decision(i)}', 'F${i}: ${tool} under /${dir}'],`);
  }
  for (let i = 0; i < 60; i++) {
    const host = `bad-${i}.example`;
    const re = String.raw`^https?:\/\/(www\.)?bad\-${i}\.example(:\d+)?(\/|$)`;
    out.push(`  ['WebFetch', '${host}', /${re}/, '${decision(i)}', 'U${i}: ${host} is blocked'],`);
  }
  return out;
}

/** The policy hook's source (about 40 KB). */
export const POLICY_HOOK = `// Policy: ${400} rules, indexed by tool, then by program, top directory or host.
const RULES = [
${rules().join('\n')}
];
const INDEX = new Map();
for (const [tool, key, pattern, decision, reason] of RULES) {
  if (!INDEX.has(tool)) INDEX.set(tool, new Map());
  const byKey = INDEX.get(tool);
  if (!byKey.has(key)) byKey.set(key, []);
  byKey.get(key).push({ pattern, decision, reason });
}
const FIELD = { Bash: 'command', Write: 'file_path', Edit: 'file_path', Read: 'file_path', WebFetch: 'url' };
function keyOf(tool, value) {
  if (tool === 'Bash') return (/^\\s*(?:sudo\\s+)?([\\w.-]+)/.exec(value) ?? [])[1];
  if (tool === 'WebFetch') return (/^https?:\\/\\/(?:www\\.)?([^/:]+)/.exec(value) ?? [])[1];
  return value.split('/')[1];
}
export default function (input) {
  const byKey = INDEX.get(input.toolName);
  const value = input.toolInput?.[FIELD[input.toolName]];
  if (byKey === undefined || typeof value !== 'string') return undefined;
  for (const r of [...(byKey.get('*') ?? []), ...(byKey.get(keyOf(input.toolName, value)) ?? [])]) {
    if (r.pattern.test(value)) return { decision: r.decision, reason: r.reason };
  }
  return { decision: 'allow' };
}
`;
