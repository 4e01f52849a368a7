// Trust invariant 7 for copilot, as a property: agents/edge-rig.ts.
import { SPECS } from './agents/agent-specs.js';
import { edgeProperty } from './agents/edge-rig.js';

edgeProperty(SPECS['copilot'], 40);
