// Small zod field builders the config schemas share, each with a message that says what was expected.
import { z } from 'zod';

export const posInt = (what = 'a positive integer') =>
  z
    .number({ error: `expected ${what}` })
    .int({ error: `expected ${what}` })
    .positive({ error: `expected ${what}` });

/** 0 or more (a count that may be zero: retries, a burst). */
export const wholeNumber = () =>
  z
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .min(0, { error: 'expected 0 or more' });

export const nonEmpty = (what: string) =>
  z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}` });
