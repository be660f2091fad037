#!/usr/bin/env node
// The HTML report's page script (src/render/html/page/, docs/design.md §1.1): type-checked with
// its own tsconfig (DOM types, no Node.js types; the root tsconfig leaves the folder out), then
// bundled by esbuild into one minified browser script, written as the string PAGE_SCRIPT of
// dist/src/render/html/page-script.js, which render/html/report.ts inlines into every report
// (and scripts/bundle.mjs bundles with the CLI). Run by `npm run build`, after tsc.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Where the page script's module is written (beside the compiled renderer that imports it). */
export const PAGE_MODULE = join(root, 'dist', 'src', 'render', 'html', 'page-script.js');

/** Type-checks the page (a type error fails the build) and returns its bundled script. */
export async function bundlePage() {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'src', 'render', 'html', 'page', 'tsconfig.json')], {
    stdio: 'inherit',
  });
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/render/html/page/main.ts'],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // Browsers of the last few years: <dialog>, Element.replaceChildren, optional chaining.
    target: ['chrome100', 'firefox100', 'safari15.4'],
    // Non-ASCII written as \u escapes, so the page's encoding cannot change the script.
    charset: 'ascii',
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text.trim();
  // The script is inlined between <script> tags: nothing in it may end or comment out the element.
  if (/<\/script|<!--/i.test(code)) throw new Error('the page script holds "</script" or "<!--"');
  return code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = await bundlePage();
  mkdirSync(dirname(PAGE_MODULE), { recursive: true });
  writeFileSync(
    PAGE_MODULE,
    `// The report page's script, bundled by scripts/build-page.mjs.\nexport const PAGE_SCRIPT = ${JSON.stringify(code)};\n`,
  );
}
