// Live `why <ds> <node>` reads one node's worth and answers as -f does, on the demo dump and three
// scenario fixtures (test/live-node-scope.ts); the slow tier checks every fixture.
import { liveNodeScope } from '../live-node-scope.js';

liveNodeScope('quick');
