// The CLI's native parts in dist/native/ (scripts/build-client.ts builds them): found from this
// module whether it runs from tsc's output (dist/src/cli/claude-code/daemon/) or the CLI bundle
// (dist/cli/bundle/), and what the build said about them. Dependency-free.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = ['../../../../native/', '../../native/'];

/** The absolute path of dist/native/<name>, if it was built. */
export function nativeFile(name: string): string | undefined {
  return CANDIDATES.map((c) => fileURLToPath(new URL(`${c}${name}`, import.meta.url))).find((f) =>
    existsSync(f),
  );
}

/** hookwarden-client, when it was built and can run; else why not (the build's own words). */
export function clientBinary(): { path: string } | { why: string } {
  const path = nativeFile('hookwarden-client');
  const report = nativeFile('client-build.json');
  let problem: string | undefined;
  try {
    const r = JSON.parse(readFileSync(report ?? '', 'utf8')) as { problems?: Record<string, string> };
    problem = r.problems?.client;
  } catch {
    problem = undefined;
  }
  if (path === undefined)
    return { why: problem ?? 'dist/native/hookwarden-client was not built (run `npm run build`)' };
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return { why: `${path} is not executable` };
  }
  return { path };
}
