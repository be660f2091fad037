/** The page's sizes (no DOM here: the tests import it). */

/** Rows an expanded pool draws at once; "Show more" adds as many again. */
export const PAGE_ROWS = 100;
/** Up to this many matching rows in all, pools start expanded. */
export const EXPAND_UP_TO = 300;
/** Rows of a long table drawn before "N more" (blockers, budget, nodes of a cause). */
export const LONG = 50;
