#!/usr/bin/env bash
# Sourced by every test command (scripts/node-test.sh, scripts/test.sh, scripts/test-*.sh):
# runs what follows on a pinned clock — noon of 2026-11-23 in the run's zone, ticking from
# there — so that no test depends on the real date, time of day or zone (docs/architecture.md
# "Tests and the clock").
#
# libfaketime (Debian `faketime`) is preloaded with one offset from the real clock, in seconds
# (FAKETIME="-N"), exported once: every process started below — the test runner, its test
# files, the `tock app` processes they start, the CLI, Python, Bun and Deno clients — reads the
# same pinned clock, so signatures and the app's clock agree and a block that ends "now" lies
# inside one day. Monotonic clocks move by the same constant offset, so timers and deadlines
# run as usual; they are not left real (DONT_FAKE_MONOTONIC), under which libfaketime 0.9.10
# fails Python's time.sleep with EINVAL. A test that moves the app's clock on its own (clock-steps, the trial's end)
# adds its step to TOCK_TEST_CLOCK_OFFSET, the offset of this pinned clock.
#
# Sourcing twice keeps the first pin (a suite run by scripts/test.sh inherits its clock). Set
# TOCK_TEST_NOW='YYYY-MM-DD HH:MM:SS' (local time) to pin another instant.
if [ -z "${TOCK_TEST_CLOCK_OFFSET:-}" ]; then
  for candidate in /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 /usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
    if [ -e "$candidate" ]; then
      TOCK_LIBFAKETIME=$candidate
      break
    fi
  done
  if [ -z "${TOCK_LIBFAKETIME:-}" ]; then
    echo "error: libfaketime is missing; the tests run on a pinned clock (scripts/system-deps.sh installs faketime)" >&2
    exit 1
  fi
  TOCK_TEST_NOW=${TOCK_TEST_NOW:-2026-11-23 12:00:00}
  # From the real clock, even under an outer `faketime` (which this pin then replaces).
  offset=$(($(date -d "$TOCK_TEST_NOW" +%s) - $(env -u LD_PRELOAD date +%s)))
  if [ "$offset" -ge 0 ]; then TOCK_TEST_CLOCK_OFFSET="+$offset"; else TOCK_TEST_CLOCK_OFFSET="$offset"; fi
  unset offset candidate
  export TOCK_LIBFAKETIME TOCK_TEST_NOW TOCK_TEST_CLOCK_OFFSET
  preload=$(tr ': ' '\n\n' <<<"${LD_PRELOAD:-}" | grep -v faketime | paste -sd: || true)
  unset FAKETIME_SHARED DONT_FAKE_MONOTONIC FAKETIME_DONT_FAKE_MONOTONIC
  # libfaketime 0.9.10 gives every process that finds no FAKETIME_SHARED a semaphore and a
  # shared-memory segment named after its pid, for its children to share, and removes them when
  # it exits — also when a forked copy of it exits, under children still running — and leaves
  # them behind when it is killed; a later process with that pid then cannot make its own and
  # exits ("sem_open failed and recreation attempts failed"). So one keeper makes them, lives as
  # long as the shell that sourced this file, and every process of the run shares its pair.
  # Pairs of keepers that were killed (their pid gone) go first: a keeper that got such a pid
  # could not make its own, and the check below would then pass on the stale one.
  for stale in /dev/shm/faketime_shm_*; do
    [ -e "$stale" ] || continue
    [ -d "/proc/${stale##*_}" ] || rm -f "$stale" "/dev/shm/sem.faketime_sem_${stale##*_}"
  done
  unset stale
  LD_PRELOAD=$TOCK_LIBFAKETIME FAKETIME=$TOCK_TEST_CLOCK_OFFSET tail --pid=$$ -f /dev/null &
  keeper=$!
  disown "$keeper" 2>/dev/null || true
  # Waited for with its size: libfaketime creates the segment empty and sizes it just after; a
  # process that maps it before then dies of SIGBUS at its first look at the clock (exit 135 in
  # a tenth of a second, without a word: one test run in about a hundred on a loaded machine).
  for _ in $(seq 1 500); do
    [ -s "/dev/shm/faketime_shm_$keeper" ] && break
    sleep 0.01
  done
  if [ ! -s "/dev/shm/faketime_shm_$keeper" ]; then
    echo "error: libfaketime's shared clock state did not appear (/dev/shm/faketime_shm_$keeper)" >&2
    exit 1
  fi
  # A process killed inside libfaketime's few microseconds under that pair's semaphore (each
  # start, each stat()) would leave it held and stop every later process of the run: the
  # watchdog, outside libfaketime, releases it once held for 3 s (scripts/faketime-watchdog.py).
  env -u LD_PRELOAD -u FAKETIME -u FAKETIME_SHARED /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/faketime-watchdog.py" "/faketime_sem_$keeper" "$$" </dev/null >/dev/null &
  disown "$!" 2>/dev/null || true
  export FAKETIME_SHARED="/faketime_sem_$keeper /faketime_shm_$keeper"
  export LD_PRELOAD="$TOCK_LIBFAKETIME${preload:+:$preload}" FAKETIME="$TOCK_TEST_CLOCK_OFFSET"
  unset preload keeper
fi

# One locale too, whatever the machine's or the person's (docs/i18n.md): the week's first day,
# the clock's 12 or 24 hours and the language follow the locale when no setting says, so a
# test that expects a Monday week or English words would otherwise depend on LANG. Tests about
# a language or a region set these variables (or the settings) themselves.
export LANG=C.UTF-8
unset LC_ALL LC_MESSAGES LC_TIME LANGUAGE
