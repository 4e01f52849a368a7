// Policy pack fixtures: a pack directory with hookpack.json and its files, real keys, real crypto.
import { join } from 'node:path';
import { writePackKeyPair } from '../../src/packs/keys.js';
import { tempDir, writeFile } from './fixture.js';

export interface PackSpec {
  name?: string;
  version?: string;
  hooks?: unknown;
  /** Extra files: relative path → content (a `.sh` file is made executable). */
  files?: Record<string, string>;
}

/** Writes a pack into `dir` (default: a fresh temp dir) and returns the directory. */
export function writePack(spec: PackSpec = {}, dir: string = join(tempDir('hw-pack-'), 'pack')): string {
  const manifest = {
    name: spec.name ?? 'guard',
    version: spec.version ?? '1.0.0',
    description: 'test pack',
    hooks: spec.hooks ?? {},
  };
  writeFile(join(dir, 'hookpack.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [path, content] of Object.entries(spec.files ?? {}))
    writeFile(join(dir, path), content, path.endsWith('.sh') ? 0o755 : undefined);
  return dir;
}

/** A command hook script that prints a HookOutput. */
export const script = (output: unknown) => `#!/bin/sh\necho '${JSON.stringify(output)}'\n`;

/** A fresh key pair on disk: `{ key, pub, keyId }`. */
export async function keyPair(name = 'reviewer'): Promise<{ key: string; pub: string; keyId: string }> {
  const prefix = join(tempDir('hw-keys-'), name);
  const written = await writePackKeyPair(prefix);
  return { key: written.keyFile, pub: written.publicKeyFile, keyId: written.keyId };
}
