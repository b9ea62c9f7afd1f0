/**
 * Summarizes a V8 CPU profile (`--cpu-prof`, as `npm run bench -- --profile` writes them to
 * bench/profiles/): self time per function and inclusive time of a few frames, so that what
 * limits a figure can be named without opening DevTools.
 *
 *   node bench/profile-summary.ts bench/profiles/status.cpuprofile [top=25] [focus=name,...]
 *
 * WINDOW=FROM-TO (minutes since the profile began) counts only the samples taken then: the
 * soak's profile (`npm run bench -- --soak --profile`) compared early against late.
 */

import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg, focusArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.ts PROFILE.cpuprofile [top] [focus,names]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Time per sample: the delta that follows it; only samples inside WINDOW when one is given.
const [fromMin, toMin] = (process.env.WINDOW ?? '0-Infinity').split('-').map(Number) as [number, number];
const selfUs = new Map<number, number>();
let atUs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  atUs += profile.timeDeltas[i] ?? 0;
  if (atUs < fromMin * 60e6 || atUs >= toMin * 60e6) continue;
  const id = profile.samples[i] as number;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

function label(n: ProfileNode): string {
  const url = n.callFrame.url.replace(/^file:\/\/.*?\/(packages|bench|node_modules)\//, '$1/');
  const where = url ? ` ${url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}` : '';
  return `${n.callFrame.functionName || '(anonymous)'}${where}`;
}

const self = new Map<string, number>();
for (const [id, us] of selfUs) {
  const key = label(byId.get(id) as ProfileNode);
  self.set(key, (self.get(key) ?? 0) + us);
}
const pct = (us: number): string => `${((100 * us) / totalUs).toFixed(1).padStart(5)} %`;
process.stdout.write(`${file}: ${(totalUs / 1e6).toFixed(2)} s sampled${process.env.WINDOW ? ` in minutes ${process.env.WINDOW}` : ''}\n\nself time\n`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${key}\n`);

// Inclusive time of frames whose function name matches a focus name (each sample counted once per name).
const focus = (focusArg ?? '').split(',').filter(Boolean);
if (focus.length > 0) {
  process.stdout.write('\ninclusive time\n');
  for (const name of focus) {
    let us = 0;
    for (const [id, t] of selfUs) {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        if ((byId.get(at) as ProfileNode).callFrame.functionName === name) {
          us += t;
          break;
        }
      }
    }
    process.stdout.write(`${pct(us)}  ${name}\n`);
  }
}

// Who calls the functions named in CALLERS=name,... (self time of the named frame, by caller chain of 3).
const callersOf = (process.env.CALLERS ?? '').split(',').filter(Boolean);
for (const name of callersOf) {
  const chains = new Map<string, number>();
  for (const [id, t] of selfUs) {
    const n = byId.get(id) as ProfileNode;
    if (n.callFrame.functionName !== name) continue;
    const chain: string[] = [];
    for (let at = parent.get(id); at !== undefined && chain.length < (Number(process.env.DEPTH) || 4); at = parent.get(at)) chain.push(label(byId.get(at) as ProfileNode));
    const key = chain.join(' ← ');
    chains.set(key, (chains.get(key) ?? 0) + t);
  }
  process.stdout.write(`\ncallers of ${name}\n`);
  for (const [key, us] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 6)) process.stdout.write(`${pct(us)}  ${key}\n`);
}
