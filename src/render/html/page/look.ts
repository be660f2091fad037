/** Badges: a symbol, a word and a colour, so that colour is never the only signal. */
import { h } from './dom.js';
import { lookOf, type Look } from './verdicts.js';

/** `<span class="badge t-…"><span class="sym">✗</span> word</span>`; `text` replaces the word shown. */
export function badge(looks: Record<string, Look>, word: string, text: string = word): HTMLSpanElement {
  const look = lookOf(looks, word);
  return h(
    'span',
    { class: `badge t-${look.tone}` },
    h('span', { class: 'sym', 'aria-hidden': 'true' }, look.symbol),
    ` ${text}`,
  );
}
