// Pods of other controllers slimmed and shared by the loader, on every fixture and real dump
// (test/neighbour-pods.ts).
import { neighbourPods } from '../neighbour-pods.js';

neighbourPods('full');
