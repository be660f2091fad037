// Pods of other controllers slimmed and shared by the loader, on a few inputs of each kind
// (test/neighbour-pods.ts; every fixture and real dump in test/slow/neighbour-pods.test.ts).
import { neighbourPods } from '../neighbour-pods.js';

neighbourPods('quick');
