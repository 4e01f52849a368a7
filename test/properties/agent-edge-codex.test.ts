// Trust invariant 7 for codex, as a property: agents/edge-rig.ts.
import { SPECS } from './agents/agent-specs.js';
import { edgeProperty } from './agents/edge-rig.js';

edgeProperty(SPECS['codex'], 40);
