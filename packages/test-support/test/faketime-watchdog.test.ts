/**
 * scripts/faketime-watchdog.py, which scripts/pinned-clock.sh starts beside every test run: it
 * releases libfaketime's shared semaphore once a process killed while holding it has left it
 * held for HELD_SECONDS, never a semaphore that is free or held briefly, and exits when the
 * run's shell does (docs/architecture.md "Tests and the clock").
 *
 * Each test has semaphores of its own, named after this process's pid, never the run's
 * (FAKETIME_SHARED): every process started here runs off libfaketime, except the keeper and the
 * waiter of the first test, which run under it on a semaphore and shared memory of their own.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { until } from '@tock/test-support';

const WATCHDOG = resolve(dirname(fileURLToPath(import.meta.url)), '../../../scripts/faketime-watchdog.py');
/** As pinned-clock.sh starts the watchdog: the system's Python, off libfaketime. */
const PYTHON = '/usr/bin/python3';
/** HELD_SECONDS for these tests: short, so that a test waits on the release, not on 3 s. */
const HELD = '0.3';

/** This process's environment without libfaketime: no process started here joins the run's semaphore. */
const offClock: NodeJS.ProcessEnv = { ...process.env };
for (const name of ['LD_PRELOAD', 'FAKETIME', 'FAKETIME_SHARED']) delete offClock[name];

/** A POSIX semaphore through libc, as libfaketime and the watchdog use it. */
const SEMAPHORE = `
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.sem_open.restype = ctypes.c_void_p
libc.sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
libc.sem_wait.argtypes = libc.sem_post.argtypes = [ctypes.c_void_p]
libc.sem_getvalue.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
libc.sem_unlink.argtypes = [ctypes.c_char_p]
command, name = sys.argv[1], sys.argv[2].encode()
if command == "unlink":
    libc.sem_unlink(name)
    sys.exit(0)
# create: libfaketime's kind, a lock (value 1) only its owner may open
sem = libc.sem_open(name, os.O_CREAT | os.O_EXCL, 0o600, 1) if command == "create" else libc.sem_open(name, 0, 0, 0)
if not sem:
    sys.exit(f"sem_open {name!r}: {os.strerror(ctypes.get_errno())}")
if command == "value":
    value = ctypes.c_int()
    libc.sem_getvalue(sem, ctypes.byref(value))
    print(value.value)
elif command == "hold":  # takes it and keeps it until killed
    libc.sem_wait(sem)
    print("held", flush=True)
    sys.stdin.read()
elif command == "hold-briefly":  # after a line on stdin: takes it for HOLD s, then frees it for GAP s, COUNT times
    hold, gap, count = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    sys.stdin.readline()
    for _ in range(count):
        libc.sem_wait(sem)
        time.sleep(hold)
        libc.sem_post(sem)
        time.sleep(gap)
`;

function semaphore(...args: string[]): string {
  const run = spawnSync(PYTHON, ['-c', SEMAPHORE, ...args], { env: offClock, encoding: 'utf8' });
  assert.equal(run.status, 0, `semaphore ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

/** A semaphore of this test's own (value 1), unlinked when the test ends. */
function ownSemaphore(t: { after(fn: () => void): void }, tag: string): string {
  const name = `/tock-faketime-watchdog-${process.pid}-${tag}`;
  semaphore('unlink', name); // one a killed earlier run of this file left behind
  semaphore('create', name);
  t.after(() => semaphore('unlink', name));
  return name;
}

interface Started {
  process: ChildProcess;
  output: () => string;
}

/** Starts a process with stdin a pipe and its stdout and stderr collected, killed if the test leaves it running. */
function start(t: { after(fn: () => Promise<void>): void }, file: string, args: string[], env: NodeJS.ProcessEnv = offClock): Started {
  const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  t.after(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await until(`${file} to end`, () => child.exitCode !== null || child.signalCode !== null);
  });
  return { process: child, output: () => output };
}

function watchdog(t: { after(fn: () => Promise<void>): void }, name: string, owner: number): Started {
  return start(t, PYTHON, [WATCHDOG, name, String(owner), HELD]);
}

/** Ends a process by closing its stdin (the anchors, the keeper: `cat`) and waits for it. */
async function endByStdin(started: Started, what: string): Promise<void> {
  started.process.stdin?.end();
  await until(`${what} to end once its stdin closed`, () => started.process.exitCode !== null || started.process.signalCode !== null);
}

async function exited(started: Started, what: string): Promise<number | null> {
  await until(what, () => started.process.exitCode !== null || started.process.signalCode !== null);
  return started.process.exitCode;
}

async function holdAndKill(t: { after(fn: () => Promise<void>): void }, name: string): Promise<void> {
  const holder = start(t, PYTHON, ['-c', SEMAPHORE, 'hold', name]);
  await until('the holder to take the semaphore', () => holder.output().includes('held\n'), { watch: holder.process });
  holder.process.kill('SIGKILL');
  await exited(holder, 'the holder to die of SIGKILL');
  assert.equal(semaphore('value', name), '0', 'the killed holder left the semaphore held');
}

test('releases libfaketime’s semaphore that a process killed by SIGKILL left held, and a process waiting in libfaketime runs', async (t) => {
  const libfaketime = process.env['TOCK_LIBFAKETIME'];
  assert.ok(libfaketime, 'TOCK_LIBFAKETIME is unset: run the tests through scripts/node-test.sh, which finds libfaketime');
  // As in pinned-clock.sh: a keeper under libfaketime without FAKETIME_SHARED makes a semaphore
  // and shared memory named after its pid, and removes them when it exits (here: at its stdin's end).
  const keeper = start(t, 'cat', [], { ...offClock, LD_PRELOAD: libfaketime, FAKETIME: '+0' });
  const sem = `/faketime_sem_${keeper.process.pid}`;
  const shm = `/faketime_shm_${keeper.process.pid}`;
  t.after(() => {
    semaphore('unlink', sem);
    rmSync(`/dev/shm${shm}`, { force: true });
  });
  await until('libfaketime’s shared memory for the keeper', () => existsSync(`/dev/shm${shm}`) && existsSync(`/dev/shm/sem.${sem.slice(1)}`), { watch: keeper.process });
  await holdAndKill(t, sem);
  // Any process under libfaketime now waits for the semaphore as it starts (and in each stat()).
  const waiter = start(t, 'stat', ['/'], { ...offClock, LD_PRELOAD: libfaketime, FAKETIME: '+0', FAKETIME_SHARED: `${sem} ${shm}` });
  const anchor = start(t, 'cat', []);
  const dog = watchdog(t, sem, anchor.process.pid!);
  await until('the process waiting in libfaketime to run (it runs once the watchdog releases the semaphore)', () => waiter.process.exitCode !== null || waiter.process.signalCode !== null, {
    abort: () => (dog.process.exitCode === null ? null : `the watchdog exited (${JSON.stringify(dog.output())})`),
  });
  assert.equal(waiter.process.exitCode, 0, waiter.output());
  assert.match(dog.output(), new RegExp(`faketime-watchdog: ${sem} was held for 0\\.3 s.*released it`));
  await endByStdin(anchor, 'the owner');
  assert.equal(await exited(dog, 'the watchdog to exit after its owner'), 0);
  assert.equal(semaphore('value', sem), '1', 'released once: a lock again, not a semaphore of 2');
  await endByStdin(keeper, 'the keeper');
});

test('never releases a semaphore that is free or held for less than HELD_SECONDS: it stays at 1', async (t) => {
  const name = ownSemaphore(t, 'brief');
  // Held 0.24 s of every 0.27 s, for ~1.1 s: at most polls the watchdog finds it held, never for 0.3 s.
  const holder = start(t, PYTHON, ['-c', SEMAPHORE, 'hold-briefly', name, '0.24', '0.03', '4']);
  const dog = watchdog(t, name, holder.process.pid!);
  await until('the watchdog to open the semaphore', () => watching(dog, name), { watch: dog.process });
  holder.process.stdin?.write('go\n');
  assert.equal(await exited(holder, 'the brief holder to finish'), 0, holder.output());
  assert.equal(await exited(dog, 'the watchdog to exit after its owner, the brief holder'), 0);
  assert.equal(semaphore('value', name), '1', 'a post on a free or briefly held lock leaves it at 2: two processes inside libfaketime’s lock at once');
  assert.equal(dog.output(), '', 'the watchdog released a semaphore that was held briefly');
});

test('exits once the process that started it is gone', async (t) => {
  const name = ownSemaphore(t, 'owner');
  const anchor = start(t, 'cat', []);
  const dog = watchdog(t, name, anchor.process.pid!);
  await until('the watchdog to open the semaphore', () => watching(dog, name), { watch: dog.process });
  assert.equal(dog.process.exitCode, null, 'the watchdog ended while its owner was alive');
  await endByStdin(anchor, 'the owner');
  assert.equal(await exited(dog, 'the watchdog to exit after its owner'), 0);
});

test('SIGTERM ends it with code 0, the semaphore left free', async (t) => {
  const name = ownSemaphore(t, 'term');
  const dog = watchdog(t, name, process.pid);
  await until('the watchdog to open the semaphore', () => watching(dog, name), { watch: dog.process });
  dog.process.kill('SIGTERM');
  assert.equal(await exited(dog, 'the watchdog to exit on SIGTERM'), 0, dog.output());
  assert.equal(semaphore('value', name), '1');
});

test('a semaphore that does not exist: says so and exits 0, never failing the run', async (t) => {
  const dog = watchdog(t, `/tock-faketime-watchdog-${process.pid}-missing`, process.pid);
  assert.equal(await exited(dog, 'the watchdog to give up on a missing semaphore'), 0);
  assert.match(dog.output(), /^faketime-watchdog: cannot open \/tock-faketime-watchdog-\d+-missing; not watching it\n$/);
});

/** The watchdog has opened the semaphore: it is mapped in its memory (sem_open maps /dev/shm/sem.NAME). */
function watching(dog: Started, name: string): boolean {
  try {
    return readFileSync(`/proc/${dog.process.pid}/maps`, 'utf8').includes(`/dev/shm/sem.${name.slice(1)}`);
  } catch {
    return false;
  }
}
