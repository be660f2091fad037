// The demo tour in tmux at 120 columns (test/tour-tmux.ts); npm test runs it at 80.
import { tourTest } from '../tour-tmux.js';

tourTest([120]);
