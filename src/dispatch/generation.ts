// One loaded generation of configuration: what a dispatch runs against from start to finish.

import type { Limits } from '../config/defaults.js';
import type { EventCatalogue } from '../contract/events.js';
import type { Registry } from '../registry/registry.js';

export interface Generation {
  readonly registry: Registry;
  readonly catalogue: EventCatalogue;
  readonly limits: Limits;
  /** Non-empty: a policy source failed to load, so deny-capable events deny. */
  readonly policyFailures: readonly string[];
}
