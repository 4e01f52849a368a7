// Absolute file-system paths in hookwarden's own messages, shortened to their last component for
// readers who must not learn the operator's layout (a tenant of `serve`): `/etc/hookwarden/policy.json`
// becomes `…/policy.json`, `/opt/ops/bin/guard.sh: ENOENT` becomes `…/guard.sh: ENOENT`. URLs
// (`https://host/path`), relative paths and `~/…` are left as they are. Dependency-free.

/**
 * An absolute path: a `/` that does not follow a word character, `.`, `:`, `/`, `~` or `@` (so not
 * the path of a URL, nor a relative path's inner slash), and what follows up to a space, a quote, a
 * separator or a bracket. `:` ends it (`file:line`, `path: message`).
 */
const ABSOLUTE_PATH = /(?<![\w.:/~@-])\/[^\s"'`,;:()<>[\]{}|\\]+/g;

/** `text` with every absolute path replaced by `…/` and its last component. */
export function redactPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (path) => {
    const trimmed = path.replace(/\/+$/, '');
    const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
    return last === '' ? '…/' : `…/${last}`;
  });
}
