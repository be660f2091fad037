/** The report page's script (src/render/html/page/), bundled by scripts/build-page.mjs, which writes the module beside the compiled renderer. */
export declare const PAGE_SCRIPT: string;
