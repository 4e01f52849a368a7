// Trust invariant 7 for claude-code, as a property: agents/edge-rig.ts.
import { SPECS } from './agents/agent-specs.js';
import { edgeProperty } from './agents/edge-rig.js';

edgeProperty(SPECS['claude-code'], 40);
