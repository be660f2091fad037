#!/usr/bin/env node
import { run } from '../dist/src/cli/run.js';

run(process.argv.slice(2));
