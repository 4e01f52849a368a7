// An http hook's header values are templates: `$NAME` and `${NAME}` name environment variables
// (Claude Code's syntax). Dependency-free: the loader lists the names a header uses, the dispatch
// fills them.

/** `$NAME` or `${NAME}` in a header value. */
const ENV_REF = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** The variables a header value names, in order. */
export function headerVariables(value: string): string[] {
  return [...value.matchAll(ENV_REF)].map((m) => (m[1] ?? m[2])!);
}

/** A header value with each variable replaced by `lookup(name)`. */
export function fillHeader(value: string, lookup: (name: string) => string): string {
  return value.replace(ENV_REF, (_, braced: string | undefined, bare: string | undefined) =>
    lookup((braced ?? bare)!),
  );
}

/**
 * What an HTTP header value may hold as Node sends it: tab, printable ASCII and Latin-1 (bytes
 * 0x80–0xFF). Anything else (a line break, NUL, another control character, a character beyond
 * Latin-1) would split the header or make Node refuse the request.
 */
export const SENDABLE_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
