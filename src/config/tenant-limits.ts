// A tenant's scheduling limits in config (applied by src/pool/tenant-queues.ts).
import { z } from 'zod';
import { wholeNumber } from './zod-fields.js';

const count = (what: string) =>
  z
    .number({ error: `expected ${what}` })
    .int({ error: `expected ${what}` })
    .positive({ error: `expected ${what}` });

/** A tenant's scheduling limits (src/pool/tenant-queues.ts). */
export const tenantLimitsSchema = z.strictObject({
  maxConcurrent: count('a positive integer')
    .optional()
    .meta({ description: "This tenant's hooks running at once, per lane." }),
  maxQueued: count('a positive integer')
    .optional()
    .meta({ description: "This tenant's hooks waiting, per lane; past it a hook fails with queue_full." }),
  weight: count('a positive integer')
    .optional()
    .meta({ description: 'Share of the fair rotation (default 1).' }),
  cpuMsPerWindow: count('a positive number of ms').optional().meta({
    description: 'Run time this tenant may use per window; then its hooks wait for the next window.',
  }),
  windowMs: count('a positive number of ms')
    .optional()
    .meta({ description: 'Window of cpuMsPerWindow (default 1000).' }),
  maxAsyncQueued: count('a positive integer').optional().meta({
    description: "This tenant's async hooks queued or running at once (default: limits.maxAsyncQueued).",
  }),
  ratePerSec: count('a positive integer')
    .optional()
    .meta({ description: "This tenant's dispatches per second (default: limits.tenantRatePerSec)." }),
  rateBurst: wholeNumber()
    .optional()
    .meta({ description: "This tenant's burst above ratePerSec (default: limits.tenantRateBurst)." }),
});

/** A tenant's scheduling limits, as applied (src/pool/tenant-queues.ts); unset = unbounded. */
export type TenantLimits = Readonly<z.output<typeof tenantLimitsSchema>>;
