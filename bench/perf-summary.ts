/**
 * Where a server's CPU went, from `perf` (bench/README.md "Issue 42 again"): V8's own profile
 * samples the main thread's wall time, so a `COMMIT` blocked in `fsync` looks like work and the
 * kernel's share is missing; `perf record -e cpu-clock -g` counts CPU only. This reads the
 * text of `perf script` and puts each sample in the first category it falls in, from the leaf
 * up (socket reads and llhttp only before any JavaScript frame: the request handler runs
 * under them), then lists the uncategorized samples by their innermost JavaScript frame.
 *
 *   node --perf-basic-prof-only-functions <server>          # JavaScript frames named in perf
 *   perf record -F 2999 -e cpu-clock -g -p PID -o perf.data  # while the load runs
 *   perf script -i perf.data > perf.txt
 *   node bench/perf-summary.ts perf.txt heartbeats|status [top=25]
 */

import { readFileSync } from 'node:fs';

type Categories = [name: string, pattern: RegExp][];

/** Runs under the request handler: counted only when no JavaScript frame is below them. */
const BELOW_JAVASCRIPT_ONLY = new Set(['socket read/epoll', 'llhttp']);

const COMMON: Categories = [
  ['GC', /Heap::|Scavenger|MarkCompact|ConcurrentMarking|MinorMS|Sweeper/],
  ['V8 compiling', /OptimizingCompileTask|compiler::|Compiler::|Maglev/],
];
const NODE_HTTP: Categories = [
  ['socket write', /uv__write|uv_try_write|handleWriteReq|writev|LibuvStreamWrap::Do|WriteWrap/],
  ['socket read/epoll', /uv__read|epoll/],
  ['llhttp', /^llhttp/],
];

const SETS: Record<string, Categories> = {
  heartbeats: [
    ...COMMON,
    ['fsync', /do_fsync|__x64_sys_fsync/],
    ['statement journal (savepoints)', /subjournalPage|memjrnl|sqlite3JournalOpen|unixOpen|unixDelete/],
    ['COMMIT: WAL frames', /pagerWalFrames|sqlite3PagerCommit/],
    ['BEGIN, SAVEPOINT, RELEASE, COMMIT run', /DatabaseSync::Exec/],
    ['SQLite statements', /StatementSync::|sqlite3_step|sqlite3_prepare/],
    ['JSON.parse', /JsonParser|Builtin_JsonParse/],
    ['JSON.stringify', /JsonStringif/],
    ...NODE_HTTP,
    ['crypto', /randomUUID|RandomBytes|CSPRNG|EVP_/],
  ],
  status: [
    ...COMMON,
    ['nonce window', /nonce-window\.ts/],
    ['the two HMACs and the body hash', /requestSignatureMatches|responseSignature|'hash node:internal\/crypto|protocol\/src\/hmac|protocol\/src\/sha256|EVP_|sha256_block/],
    ['auth headers', /readAuthHeaders|authHeadersWellFormed/],
    ['getStatus', /tracker\.ts|core\/src\/store|zone\.ts/],
    ['clock reads', /clock-steps/],
    ['request list, onRequest, change bus', /request-log|'record file|change-bus|ui\/server|ui\/events/],
    ['license', /license\.ts/],
    ['connection limits', /connection-limits/],
    ['gate, route, listener', /gate\.ts|listener\.ts|routes\.ts|checks\.ts|exchange\.ts|envelopes\.ts/],
    ...NODE_HTTP,
    ["Node's HTTP server (JavaScript)", /_http_|node:events|streams\/|node:net|task_queues|timers/],
  ],
};

const [file, setName = 'heartbeats', topArg = '25'] = process.argv.slice(2);
const categories = SETS[setName];
if (file === undefined || categories === undefined) {
  console.error(`usage: node bench/perf-summary.ts <perf script output> ${Object.keys(SETS).join('|')} [top]`);
  process.exit(2);
}

const counts = new Map<string, number>();
const innermost = new Map<string, number>();
let samples = 0;
for (const block of readFileSync(file, 'utf8').split('\n\n')) {
  // The first line names the sample; each next one is a frame, leaf first: "addr symbol (dso)".
  const frames = block
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().replace(/^[0-9a-f]+ /, '').replace(/ \((?:\/|\[)[^)]*\)$/, ''));
  if (frames.length === 0 || frames[0] === '') continue;
  samples++;
  let found: string | undefined;
  let javascriptBelow = false;
  for (const frame of frames) {
    found = categories.find(([name, pattern]) => !(javascriptBelow && BELOW_JAVASCRIPT_ONLY.has(name)) && pattern.test(frame))?.[0];
    if (found !== undefined) break;
    if (frame.startsWith('JS:')) javascriptBelow = true;
  }
  const category = found ?? 'other';
  counts.set(category, (counts.get(category) ?? 0) + 1);
  if (found === undefined) {
    const js = frames.find((frame) => frame.startsWith('JS:'))?.replace(/\+0x[0-9a-f]+$/, '') ?? `(native) ${frames[0]}`;
    innermost.set(js, (innermost.get(js) ?? 0) + 1);
  }
}

const share = (n: number): string => `${((100 * n) / samples).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${samples} samples`);
for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${share(n)}  ${name}`);
console.log('\nother, by innermost JavaScript frame');
for (const [name, n] of [...innermost].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) console.log(`${share(n)}  ${name.slice(0, 120)}`);
