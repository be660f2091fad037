// Live `why <ds> <node>` against -f on every DaemonSet × node of every scenario fixture and the
// demo dump (test/live-node-scope.ts); npm test checks the demo dump and three fixtures.
import { liveNodeScope } from '../live-node-scope.js';

liveNodeScope('full');
