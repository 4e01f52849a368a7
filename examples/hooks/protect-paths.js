// A JS hook: runs in a QuickJS isolate with no host access. Denies writes to system paths and asks
// before touching lock files. `input` is deep-frozen; return nothing to stay out of the decision.
const SYSTEM = ['/etc/', '/usr/', '/bin/', '/boot/'];

export default function (input, ctx) {
  const path = String(input.toolInput?.file_path ?? '');
  if (SYSTEM.some((prefix) => path.startsWith(prefix))) {
    return { decision: 'deny', reason: `${ctx.hookId}: ${path} is a system path` };
  }
  if (/(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml)$/.test(path)) {
    return { decision: 'ask', reason: 'lock files are normally written by the package manager' };
  }
}
