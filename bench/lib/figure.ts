/**
 * What every figure reports (value, baseline, ratio, target, pass/fail) and how its two sides
 * are measured: in paired rounds that alternate which side goes first (AB, BA, AB, …), so a
 * machine that gets busier or quieter during the run moves both sides alike. A figure's ratio
 * is the median of its per-round ratios.
 */

import { median } from './stats.ts';

/** A target on the ratio: at least, at most, or report only. */
export type Target = { kind: 'min'; ratio: number } | { kind: 'max'; ratio: number } | { kind: 'report'; text: string };

/** One line of the results table. */
export interface FigureResult {
  id: string;
  title: string;
  unit: string;
  value: number | null;
  baseline: number | null;
  /** What the baseline is. */
  baselineLabel: string;
  ratio: number | null;
  target: Target;
  /** null: report-only, skipped or failed to measure. */
  pass: boolean | null;
  status: 'measured' | 'skipped' | 'error';
  /** One line for the table (why it was skipped, what limits it, …). */
  note?: string;
  details: Record<string, unknown>;
}

/** Run-wide settings the figures read. */
export interface BenchConfig {
  smoke: boolean;
  /** Paired rounds per figure. */
  rounds: number;
  warmupMs: number;
  /** Length of one closed-loop throughput run. */
  throughputMs: number;
  /** In-flight requests of the throughput runs. */
  concurrency: number;
  /** Length of one latency run. */
  latencyMs: number;
  sessions: { small: number; large: number };
  activities: { small: number; large: number };
  writesMs: number;
  clientMs: number;
  memoryMs: number;
  coldStarts: number;
  /** Write CPU profiles of the server children to bench/profiles/. */
  profile: boolean;
  /** Node flags for a server child; names its profile after `name`. */
  serverArgs(name: string): string[];
  /** Progress lines go to stderr. */
  log(line: string): void;
}

/** Whether a ratio meets its target. */
export function meets(target: Target, ratio: number | null): boolean | null {
  if (ratio === null || !Number.isFinite(ratio)) return null;
  if (target.kind === 'min') return ratio >= target.ratio;
  if (target.kind === 'max') return ratio <= target.ratio;
  return null;
}

/** The target as the table shows it. */
export function targetText(target: Target): string {
  if (target.kind === 'min') return `≥ ${target.ratio}`;
  if (target.kind === 'max') return `≤ ${target.ratio}×`;
  return target.text;
}

/** Per-round measurements of both sides and their ratios. */
export interface Paired<D> {
  baseline: number[];
  subject: number[];
  ratios: number[];
  baselineDetails: D[];
  subjectDetails: D[];
}

/** One measurement of one side: the number compared, and anything else worth keeping. */
export interface Sample<D> {
  value: number;
  detail: D;
}

/**
 * Measures both sides `rounds` times, alternating which goes first, and pairs them up:
 * ratio = subject / baseline per round.
 */
export async function pairedRounds<D>(
  rounds: number,
  baseline: () => Promise<Sample<D>>,
  subject: () => Promise<Sample<D>>,
): Promise<Paired<D>> {
  const out: Paired<D> = { baseline: [], subject: [], ratios: [], baselineDetails: [], subjectDetails: [] };
  for (let r = 0; r < rounds; r++) {
    let b: Sample<D>;
    let s: Sample<D>;
    if (r % 2 === 0) {
      b = await baseline();
      s = await subject();
    } else {
      s = await subject();
      b = await baseline();
    }
    out.baseline.push(b.value);
    out.subject.push(s.value);
    out.ratios.push(s.value / b.value);
    out.baselineDetails.push(b.detail);
    out.subjectDetails.push(s.detail);
  }
  return out;
}

/** Two sides' runs as a pair: `pick`'s number of each, the ratio per round subject ÷ baseline, the runs as details. */
export function pairOf<D>(subject: D[], baseline: D[], pick: (d: D) => number): Paired<D> {
  return {
    subject: subject.map(pick),
    baseline: baseline.map(pick),
    ratios: subject.map((d, i) => pick(d) / pick(baseline[i] as D)),
    subjectDetails: subject,
    baselineDetails: baseline,
  };
}

/**
 * Runs every side `rounds` times: even rounds in the order of `order`, odd ones in reverse (for
 * three sides: bare, floor, Tock; then Tock, floor, bare), so that each pair of rounds gives
 * every side the same positions. Returns each side's runs in round order.
 */
export async function alternatingRounds<K extends string, D>(rounds: number, order: readonly K[], sides: Record<K, () => Promise<D>>): Promise<Record<K, D[]>> {
  const runs = Object.fromEntries(order.map((side) => [side, [] as D[]])) as Record<K, D[]>;
  const reversed = [...order].reverse();
  for (let r = 0; r < rounds; r++) for (const side of r % 2 === 0 ? order : reversed) runs[side].push(await sides[side]());
  return runs;
}

/** A measured figure from paired rounds: medians of both sides, median of the ratios. */
export function pairedFigure(
  base: Omit<FigureResult, 'value' | 'baseline' | 'ratio' | 'pass' | 'status' | 'details'>,
  paired: Paired<unknown>,
  details: Record<string, unknown> = {},
): FigureResult {
  const ratio = median(paired.ratios);
  return {
    ...base,
    value: median(paired.subject),
    baseline: median(paired.baseline),
    ratio,
    pass: meets(base.target, ratio),
    status: 'measured',
    details: {
      rounds: paired.ratios.length,
      roundRatios: paired.ratios.map((r) => round(r, 3)),
      subjectRounds: paired.subject.map((v) => round(v, 3)),
      baselineRounds: paired.baseline.map((v) => round(v, 3)),
      ...details,
    },
  };
}

/** A figure that could not be measured (the harness broke) or was skipped on purpose. */
export function unmeasured(
  base: Omit<FigureResult, 'value' | 'baseline' | 'ratio' | 'pass' | 'status' | 'details'>,
  status: 'skipped' | 'error',
  note: string,
): FigureResult {
  return { ...base, value: null, baseline: null, ratio: null, pass: null, status, note, details: {} };
}

/** Rounds to `digits` decimals (for JSON and the table). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Server CPU per request on both sides (medians over rounds), and subject / baseline. */
export interface CpuComparison {
  subjectUs: number;
  baselineUs: number;
  /** subject / baseline: how many times the CPU a request costs the subject. */
  ratio: number;
}

/** Compares the server CPU per request that {@link drive} measured for each round. */
export function cpuComparison(
  subject: { serverCpuUsPerRequest?: number }[],
  baseline: { serverCpuUsPerRequest?: number }[],
): CpuComparison {
  const s = median(subject.map((d) => d.serverCpuUsPerRequest ?? Number.NaN));
  const b = median(baseline.map((d) => d.serverCpuUsPerRequest ?? Number.NaN));
  return { subjectUs: round(s, 1), baselineUs: round(b, 1), ratio: round(s / b, 3) };
}
