/** The results table printed at the end of a run. */

import { targetText, type FigureResult } from './figure.ts';

function num(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return `${value.toFixed(digits)} ${unit}`.trim();
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** The figures as a fixed-width table, each followed by its baseline and note. */
export function formatTable(
  figures: FigureResult[],
  context: { smoke: boolean; cores: number; load: { start: number[]; end: number[] } },
): string {
  const rows = figures.map((f) => [
    f.title,
    num(f.value, f.unit),
    num(f.baseline, f.unit),
    f.ratio === null ? '—' : f.ratio.toFixed(f.ratio >= 10 ? 1 : 2),
    targetText(f.target),
    f.status === 'skipped' ? 'SKIPPED' : f.status === 'error' ? 'ERROR' : f.pass === null ? 'report' : context.smoke ? '(smoke)' : f.pass ? 'pass' : 'FAIL',
  ]);
  const head = ['figure', 'value', 'baseline', 'ratio', 'target', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]): string => cells.map((c, i) => pad(c, widths[i] as number)).join('  ').trimEnd();
  const out = [
    '',
    `Tock bench — ${context.smoke ? 'SMOKE (tiny sizes; harness check only)' : 'full run'}; ${context.cores} cores shared by server, ` +
      `load generator and baselines; load average ${context.load.start.join(' ')} → ${context.load.end.join(' ')}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
  ];
  for (const [i, f] of figures.entries()) {
    out.push(line(rows[i] as string[]));
    const extra = [`baseline: ${f.baselineLabel}`];
    if (f.note) extra.push(f.note);
    out.push(`    ${extra.join('; ')}`);
  }
  return `${out.join('\n')}\n`;
}
