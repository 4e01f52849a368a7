// Small zod field builders the config schemas share, each with a message that says what was expected.
import { z } from 'zod';

export const posInt = (what = 'a positive integer') =>
  z
    .number({ error: `expected ${what}` })
    .int({ error: `expected ${what}` })
    .positive({ error: `expected ${what}` });

export const nonEmpty = (what: string) =>
  z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}` });
