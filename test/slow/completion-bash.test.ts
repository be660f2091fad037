// Every case of bash completion in a real bash (test/completion-bash.ts); npm test runs a few.
import { bashCompletion } from '../completion-bash.js';

bashCompletion('full');
