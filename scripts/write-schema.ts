// Writes schema/hooks.schema.json from the zod schema (run by `npm run build`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hooksJsonSchema } from '../src/config/json-schema.js';

const dir = fileURLToPath(new URL('../../schema/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}hooks.schema.json`, `${JSON.stringify(hooksJsonSchema(), null, 2)}\n`);
