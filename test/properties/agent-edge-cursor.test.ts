// Trust invariant 7 for cursor, as a property: agents/edge-rig.ts.
import { SPECS } from './agents/agent-specs.js';
import { edgeProperty } from './agents/edge-rig.js';

edgeProperty(SPECS['cursor'], 40);
