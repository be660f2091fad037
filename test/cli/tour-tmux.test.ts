// The demo tour in tmux at 80 columns (test/tour-tmux.ts); the slow tier runs it at 120.
import { tourTest } from '../tour-tmux.js';

tourTest([80]);
