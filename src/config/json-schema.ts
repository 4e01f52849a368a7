// The JSON Schema of hooks.json, generated from the zod schema so editors validate what the loader
// accepts. `npm run build` writes it to schema/hooks.schema.json; `hookwarden schema` prints it.
import { z } from 'zod';
import { configFileSchema } from './schema.js';

const HOOKS_SCHEMA_ID = 'https://hookwarden.dev/schema/hooks.schema.json';

export function hooksJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { ...schema, $id: HOOKS_SCHEMA_ID };
}
