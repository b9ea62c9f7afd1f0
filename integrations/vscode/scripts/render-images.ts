/**
 * Draws the extension's two images with headless Chromium (playwright-core, /usr/bin/chromium)
 * and writes them as PNG into images/: the icon (128×128, from the SVG below) and the README's
 * illustration of the status bar item and the activity picker (HTML made to look like VS Code's
 * dark theme — an illustration, not a capture of VS Code, which cannot run here).
 *
 * Run after changing either drawing, and commit the PNGs: `npm run images -w tock-vscode`.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const images = join(dirname(fileURLToPath(import.meta.url)), '../images');

/** A clock face with a running second hand on Tock's teal. */
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <rect x="4" y="4" width="120" height="120" rx="26" fill="#0f766e"/>
  <circle cx="64" cy="68" r="38" fill="none" stroke="#ffffff" stroke-width="9"/>
  <rect x="56" y="16" width="16" height="12" rx="4" fill="#ffffff"/>
  <line x1="64" y1="68" x2="64" y2="44" stroke="#ffffff" stroke-width="8" stroke-linecap="round"/>
  <line x1="64" y1="68" x2="81" y2="79" stroke="#5eead4" stroke-width="8" stroke-linecap="round"/>
  <circle cx="64" cy="68" r="6" fill="#ffffff"/>
</svg>`;

const WATCH = `<svg width="14" height="14" viewBox="0 0 16 16" fill="currentColor" style="vertical-align:-2px"><path d="M8 2.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11ZM1.5 8a6.5 6.5 0 1 1 13 0 6.5 6.5 0 0 1-13 0Z"/><path d="M7.5 4.5h1v3.3l2.2 1.3-.5.9-2.7-1.6V4.5Z"/></svg>`;
const ADD = `<svg width="14" height="14" viewBox="0 0 16 16" fill="currentColor" style="vertical-align:-2px"><path d="M7.5 2h1v5.5H14v1H8.5V14h-1V8.5H2v-1h5.5V2Z"/></svg>`;

const SCREENSHOT_HTML = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; width: 900px; height: 430px; background: #1e1e1e; font: 13px system-ui, sans-serif; color: #cccccc; position: relative; overflow: hidden; }
  .tabs { height: 35px; background: #252526; display: flex; }
  .tab { padding: 9px 16px; background: #1e1e1e; color: #ffffff; border-top: 1px solid #0f766e; }
  pre { margin: 0; padding: 12px 0 0 0; font: 13px/20px ui-monospace, monospace; color: #d4d4d4; }
  .ln { display: inline-block; width: 48px; text-align: right; padding-right: 18px; color: #6e7681; }
  .k { color: #569cd6; } .s { color: #ce9178; } .f { color: #dcdcaa; } .c { color: #6a9955; }
  .pick { position: absolute; top: 44px; left: 170px; width: 560px; background: #252526; border: 1px solid #454545; border-radius: 6px; box-shadow: 0 4px 18px rgba(0,0,0,.6); padding: 6px 0; }
  .title { text-align: center; padding: 2px 0 6px; color: #cccccc; }
  .input { margin: 0 6px 6px; padding: 4px 6px; background: #3c3c3c; border: 1px solid #0f766e; color: #ffffff; border-radius: 2px; }
  .row { padding: 4px 12px; display: flex; gap: 8px; }
  .row.active { background: #04395e; color: #ffffff; }
  .desc { color: #9d9d9d; font-size: 12px; }
  .status { position: absolute; bottom: 0; left: 0; right: 0; height: 22px; background: #007acc; color: #ffffff; display: flex; justify-content: space-between; align-items: center; padding: 0 10px; font-size: 12px; }
  .status span { padding: 0 6px; }
  .tock { background: rgba(255,255,255,.18); border-radius: 2px; }
  .label { position: absolute; right: 12px; bottom: 30px; color: #8b949e; font-size: 11px; }
</style></head><body>
  <div class="tabs"><div class="tab">invoice.ts</div></div>
  <pre><span class="ln">12</span><span class="k">export function</span> <span class="f">totalDue</span>(lines: <span class="k">readonly</span> Line[]): number {
<span class="ln">13</span>  <span class="c">// Rounded per line, as the printed invoice shows it.</span>
<span class="ln">14</span>  <span class="k">return</span> lines.<span class="f">reduce</span>((sum, line) =&gt; sum + <span class="f">round</span>(line.amount), <span class="s">0</span>);
<span class="ln">15</span>}
<span class="ln">16</span>
<span class="ln">17</span><span class="k">export function</span> <span class="f">dueDate</span>(issued: Date, days = <span class="s">30</span>): Date {
<span class="ln">18</span>  <span class="k">return new</span> Date(issued.<span class="f">getTime</span>() + days * DAY_MS);
<span class="ln">19</span>}</pre>
  <div class="pick">
    <div class="title">Tock: Start Activity</div>
    <div class="input">rev</div>
    <div class="row active"><span>Review invoices</span><span class="desc">tracking now</span></div>
    <div class="row"><span>Revenue report Q4</span></div>
    <div class="row"><span>Code review: billing export</span></div>
    <div class="row">${ADD}<span>Create "rev"</span><span class="desc">new activity</span></div>
  </div>
  <div class="label">Illustration of the Tock extension in VS Code's dark theme</div>
  <div class="status"><div><span>main</span></div><div><span class="tock">${WATCH} Review invoices · 1:42</span><span>Ln 14, Col 9</span><span>TypeScript</span></div></div>
</body></html>`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${ICON_SVG}</body></html>`);
  writeFileSync(join(images, 'icon.png'), await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } }));
  await page.setViewportSize({ width: 900, height: 430 });
  await page.setContent(SCREENSHOT_HTML);
  writeFileSync(join(images, 'screenshot.png'), await page.screenshot({ clip: { x: 0, y: 0, width: 900, height: 430 } }));
} finally {
  await browser.close();
}
console.log(`wrote ${join(images, 'icon.png')} and ${join(images, 'screenshot.png')}`);
