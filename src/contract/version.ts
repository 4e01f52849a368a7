// The version `hookwarden --version` prints: package.json's, read where this code runs from
// (dist/src/contract/ or the CLI bundle dist/cli/bundle/: three levels below the package; the sources
// under vitest: two).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function readVersion(): string {
  for (const rel of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'hookwarden' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not this one
    }
  }
  return 'unknown';
}

export const VERSION = readVersion();
