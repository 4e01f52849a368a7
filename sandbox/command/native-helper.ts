// Where hookwarden's native helpers are (built by scripts/build-native.ts into dist/native/): from
// dist/sandbox/command/ and from the CLI bundle (dist/cli/bundle/) two levels up, from the sources
// under vitest in the dist/ next to them.
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Whether `path` exists and this process may execute it. */
export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The built helper's path, or undefined when it was not built (no C compiler at build time). */
export function findNativeHelper(name: 'hw-exec' | 'hw-spawn-server'): string | undefined {
  return [
    new URL(`../../native/${name}`, import.meta.url),
    new URL(`../../dist/native/${name}`, import.meta.url),
  ]
    .map((u) => fileURLToPath(u))
    .find(executable);
}
