/**
 * The report page's stylesheet. Every colour goes with a symbol and a word (page/verdicts.ts);
 * `prefers-contrast: more` darkens the palette and draws borders, forced colours (Windows high
 * contrast) leave the system's colours and keep outlines, and print drops the controls.
 */
export const REPORT_CSS = `
:root {
  --fg: #1f2328; --muted: #59636e; --bg: #fff; --line: #d1d9e0; --head: #f6f8fa; --link: #0550ae; --focus: #0969da;
  --ok-bg: #dafbe1; --ok-fg: #116329; --off-bg: #eef1f4; --off-fg: #4b535c; --bad-bg: #ffebe9; --bad-fg: #a40e26;
  --wait-bg: #fff8c5; --wait-fg: #7d4e00; --warn-bg: #ffe7d1; --warn-fg: #953800; --odd-bg: #fbefff; --odd-fg: #6e3b9f;
  --info-bg: #ddf4ff; --info-fg: #0a3069;
  color-scheme: light;
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 22px; }
header .sub { margin: 4px 0; color: var(--muted); overflow-wrap: anywhere; }
nav a { margin-right: 16px; }
main { padding: 0 24px 48px; }
section { margin-top: 24px; }
h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
h4 { font-size: 14px; margin: 16px 0 6px; }
h5 { font-size: 13px; margin: 12px 0 4px; }
a { color: var(--link); }
code, pre, .code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
pre { background: var(--head); border: 1px solid var(--line); padding: 8px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.hint, .more-note, .matrix-status { color: var(--muted); }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; border: 1px solid transparent; white-space: nowrap; font-weight: 600; font-size: 12px; }
.t-ok { background: var(--ok-bg); color: var(--ok-fg); }
.t-off { background: var(--off-bg); color: var(--off-fg); }
.t-bad { background: var(--bad-bg); color: var(--bad-fg); }
.t-wait { background: var(--wait-bg); color: var(--wait-fg); }
.t-warn { background: var(--warn-bg); color: var(--warn-fg); }
.t-odd { background: var(--odd-bg); color: var(--odd-fg); }
.t-info { background: var(--info-bg); color: var(--info-fg); }
.grid-table { border-collapse: collapse; margin: 6px 0; }
.grid-table th, .grid-table td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; overflow-wrap: break-word; }
.grid-table th { background: var(--head); white-space: nowrap; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
.facts dt { font-weight: 600; color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.facts dd ul, .facts dd ol { margin: 0; padding-left: 18px; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 8px 0; }
.filters select, .filters input, .filters button, button { font: inherit; padding: 2px 8px; }
.legend .badge { margin-right: 2px; }
.matrix-scroll { overflow: auto; max-height: 80vh; border: 1px solid var(--line); }
/* A fixed layout (column widths from the header, the table's width set by the script): thousands of cells are laid out without measuring each. */
.matrix { border-collapse: separate; border-spacing: 0; font-size: 12px; table-layout: fixed; }
.matrix th, .matrix td { border-right: 1px solid var(--line); border-bottom: 1px solid var(--line); padding: 2px 6px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.matrix thead th { position: sticky; top: 0; z-index: 2; background: var(--head); vertical-align: bottom; text-align: left; white-space: normal; overflow-wrap: anywhere; }
.matrix th.corner { width: 16em; }
.matrix th.ds-col { width: 13em; }
.matrix thead th .ns { color: var(--muted); font-weight: normal; }
.matrix th.node, .matrix th.pool-head, .matrix th.corner { position: sticky; left: 0; z-index: 1; background: var(--bg); text-align: left; }
.matrix thead th.corner { z-index: 3; background: var(--head); }
.matrix tr.pool-row th, .matrix tr.pool-row td { background: var(--head); font-weight: 600; border-top: 2px solid var(--line); }
.matrix .pool-toggle { border: 0; background: none; font-weight: 600; cursor: pointer; padding: 0; }
.matrix .pool-count { color: var(--muted); font-weight: normal; }
.matrix .count { display: inline-block; margin-right: 4px; padding: 0 4px; border-radius: 3px; font-weight: normal; }
.matrix td.cell { cursor: pointer; }
.matrix td.cell .sym { font-weight: 700; display: inline-block; width: 1.1em; text-align: center; }
.matrix td.cell .code { margin-left: 2px; font-family: inherit; }
.matrix td.cell:hover { outline: 2px solid var(--focus); outline-offset: -2px; }
.matrix td.cell.dim { opacity: 0.45; }
details.ds { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 0 12px; }
details.ds > summary { cursor: pointer; padding: 8px 0; overflow-wrap: anywhere; }
.reason { border-left: 3px solid var(--line); padding: 2px 0 2px 10px; margin: 8px 0; }
.reason p { margin: 2px 0; }
.reason-message, .reason .fix { overflow-wrap: anywhere; }
.fix { white-space: pre-wrap; }
.label { font-weight: 600; color: var(--muted); }
.evidence ul { margin: 2px 0; padding-left: 18px; }
.notes { color: var(--muted); }
.causes { padding-left: 20px; }
.cause h3 { font-size: 14px; }
dialog#detail { position: fixed; inset: 0 0 0 auto; z-index: 10; margin: 0; width: min(620px, 48vw); height: 100vh; max-height: 100vh; overflow: auto; border: 0; border-left: 2px solid var(--line); padding: 0 20px 16px; box-shadow: -4px 0 16px rgb(0 0 0 / 0.15); background: var(--bg); color: var(--fg); }
.detail-head { display: flex; justify-content: space-between; align-items: baseline; gap: 16px; position: sticky; top: 0; background: var(--bg); }
.detail-head h2 { border: 0; overflow-wrap: anywhere; }
.detail-body .grid-table { width: 100%; }
.detail-body .grid-table td { overflow-wrap: anywhere; }
.matrix td.cell.current { outline: 3px solid var(--focus); outline-offset: -3px; }
.error { color: var(--bad-fg); font-weight: 600; padding: 24px; }
@media (prefers-contrast: more) {
  :root { --fg: #000; --muted: #1f2328; --line: #57606a; --link: #0030a0;
    --ok-bg: #fff; --off-bg: #fff; --bad-bg: #fff; --wait-bg: #fff; --warn-bg: #fff; --odd-bg: #fff; --info-bg: #fff;
    --ok-fg: #024c1a; --off-fg: #000; --bad-fg: #86061d; --wait-fg: #4d2d00; --warn-fg: #702c00; --odd-fg: #512a97; --info-fg: #002155; }
  .badge, .matrix .count { border-color: currentColor; }
  .matrix td.cell.dim { opacity: 1; text-decoration: line-through; }
}
@media (forced-colors: active) {
  .badge, .matrix .count { border: 1px solid CanvasText; }
  .matrix td.cell:focus, .matrix td.cell:hover { outline: 3px solid Highlight; }
  .matrix td.cell.dim { opacity: 1; text-decoration: line-through; }
  .matrix thead th, .matrix th.node, .matrix th.pool-head { background: Canvas; }
  dialog#detail { border-left: 2px solid CanvasText; }
}
@media print {
  body { font-size: 10pt; }
  nav, .filters, .pool-toggle .sym, .more-row, button.close, .matrix-status { display: none; }
  .matrix-scroll { overflow: visible; max-height: none; border: 0; }
  .matrix thead th, .matrix th.node, .matrix th.pool-head, .matrix th.corner { position: static; }
  .badge, .matrix .count, .matrix td.cell { border: 1px solid #000; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  details.ds { break-inside: avoid-page; }
  a { color: inherit; text-decoration: none; }
  dialog#detail { display: none; }
}
`;
