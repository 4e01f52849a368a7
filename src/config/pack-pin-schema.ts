// zod schema of a pack pin: an entry of a config file's "packs" (docs/packs.md).

import { valid } from 'semver';
import { z } from 'zod';
import { DIGEST_PATTERN, PACK_NAME_PATTERN } from './pin-loader.js';
import { nonEmpty } from './zod-fields.js';

/** A pinned policy pack (docs/packs.md): verified at every load, refused when anything changed. */
export const packPinSchema = z
  .strictObject({
    path: nonEmpty('a path to the pack directory').optional().meta({
      description: 'Pack directory (holding hookpack.json), relative to this config file. Give path or url.',
    }),
    url: nonEmpty('an https:// URL of a bundle').optional().meta({
      description:
        'A bundle (`hookwarden pack bundle`, a .tar.gz) to fetch over https (http only from a loopback address), verified before use and cached; needs digest or publicKeys. Give path or url.',
    }),
    pollSeconds: z
      .number({ error: 'expected a whole number of seconds' })
      .int({ error: 'expected a whole number of seconds' })
      .min(1, { error: 'expected at least 1' })
      .max(86_400, { error: 'expected at most 86400 (a day)' })
      .optional()
      .meta({
        description:
          'url pins: ask the server for a new bundle this often (If-None-Match). Default 300. Not with a digest (the content cannot change).',
      }),
    digest: z
      .string({ error: 'expected "sha256:<64 hex>"' })
      .regex(DIGEST_PATTERN, { error: 'expected "sha256:<64 hex>" (as printed by `hookwarden pack lock`)' })
      .optional()
      .meta({
        description:
          'The exact pack digest (printed by `hookwarden pack lock`): any other content is refused.',
      }),
    publicKeys: z
      .array(nonEmpty('a path to a PEM public key'), { error: 'expected an array of public key file paths' })
      .min(1, { error: 'expected at least one public key file' })
      .optional()
      .meta({
        description:
          'Ed25519 public key files (SPKI PEM, `hookwarden pack keygen`), relative to this config file. A signature by ANY of them is accepted: list two during a key rotation.',
      }),
    requireSignature: z.boolean({ error: 'expected true or false' }).optional().meta({
      description:
        'Refuse the pack unless a signature by one of publicKeys verifies. Default: true when publicKeys are given.',
    }),
    name: z
      .string({ error: 'expected a pack name' })
      .regex(PACK_NAME_PATTERN, {
        error:
          "expected the pack's name as in its hookpack.json (1-128 characters from A-Z a-z 0-9 . _ : @ / + -)",
      })
      .optional()
      .meta({
        description:
          'The name the pack must have (hookpack.json `name`): another pack, even one signed by the same key, is refused. Required on a url pin without a digest.',
      }),
    minVersion: z
      .string({ error: 'expected a semantic version such as "1.2.0"' })
      .refine((v) => valid(v) !== null, { error: 'expected a semantic version such as "1.2.0"' })
      .optional()
      .meta({
        description:
          'The lowest version accepted (semantic versions): an older pack is refused. A url pin also never goes back below the last version it verified.',
      }),
    scope: z.enum(['policy', 'user'], { error: 'expected "policy" or "user"' }).optional().meta({
      description:
        'policy: a refused pack makes deny-capable events deny, its hooks cannot be replaced. user: a refused pack is skipped with a warning. Default user; every pack of a policy file is policy.',
    }),
  })
  .meta({ description: 'A pinned policy pack; see docs/packs.md.' });
