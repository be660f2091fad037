/** Writes docs/reasons.md from the reason-code registries (`npm run docs`). Run from the repository root. */
import { writeFileSync } from 'node:fs';
import { REASONS_DOC_PATH, renderReasonDocs } from '../src/model/reasons/docs.js';

writeFileSync(REASONS_DOC_PATH, renderReasonDocs());
console.log(`wrote ${REASONS_DOC_PATH}`);
