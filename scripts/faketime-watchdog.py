"""Releases libfaketime's shared semaphore when a killed process left it held.

scripts/pinned-clock.sh runs every process of a test run on one libfaketime semaphore and
shared-memory pair (FAKETIME_SHARED). libfaketime 0.9.10 takes that semaphore as each process
starts and around each stat(), for microseconds. A process killed with SIGKILL inside that
window (the crash tests kill child processes at will) never gives it back, and every later
process of the run then waits for it forever. This watchdog, started by pinned-clock.sh outside
libfaketime, posts the semaphore once it has been held for HELD_SECONDS in a row, and exits
when the shell that started the run does (or on SIGTERM).

"Held in a row" is measured by waiting for the semaphore, not by sampling its value: the
watchdog takes it with a deadline of HELD_SECONDS and gives it straight back when it gets it.
Sampling cannot tell a lock held for 3 s from one taken again and again (processes that stat()
in a loop): a watchdog that sampled posted a lock somebody held, which rose to 2 when they gave
it back, and two processes were inside libfaketime's lock at once. A post happens only after a wait that
ran out and a last try that found the semaphore still held.

Tested by packages/test-support/test/faketime-watchdog.test.ts.

usage: faketime-watchdog.py SEMAPHORE_NAME OWNER_PID [HELD_SECONDS]
"""

import ctypes
import errno
import os
import signal
import sys
import time

POLL_SECONDS = 0.25


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def main() -> int:
    name, owner = sys.argv[1], int(sys.argv[2])
    held_limit = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sem_open.restype = ctypes.c_void_p
    libc.sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.sem_post.argtypes = [ctypes.c_void_p]
    libc.sem_trywait.argtypes = [ctypes.c_void_p]
    if hasattr(libc, "sem_clockwait"):  # glibc 2.30+: a deadline on the monotonic clock
        libc.sem_clockwait.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.POINTER(Timespec),
        ]
        clock = time.CLOCK_MONOTONIC

        def wait(sem: int, until: Timespec) -> int:
            return int(
                libc.sem_clockwait(sem, time.CLOCK_MONOTONIC, ctypes.byref(until))
            )
    else:
        libc.sem_timedwait.argtypes = [ctypes.c_void_p, ctypes.POINTER(Timespec)]
        clock = time.CLOCK_REALTIME

        def wait(sem: int, until: Timespec) -> int:
            return int(libc.sem_timedwait(sem, ctypes.byref(until)))

    sem = libc.sem_open(name.encode(), 0)
    if not sem:
        print(
            f"faketime-watchdog: cannot open {name}; not watching it", file=sys.stderr
        )
        return 0

    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        # A flag, not an exception: never leave between taking the semaphore and giving it back.
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)

    def take(seconds: float) -> int:
        """Takes the semaphore within `seconds`: 0, or the errno (ETIMEDOUT) of the wait."""
        deadline = time.clock_gettime(clock) + seconds
        until = Timespec(int(deadline), int((deadline % 1) * 1e9))
        while True:
            if wait(sem, until) == 0:
                return 0
            error = ctypes.get_errno()
            if error != errno.EINTR or stopping:
                return error

    while not stopping and os.path.exists(f"/proc/{owner}"):
        error = take(held_limit)
        if error == 0 or libc.sem_trywait(sem) == 0:
            libc.sem_post(sem)  # free, or given back in time: give our turn back
        elif error == errno.ETIMEDOUT and not stopping:
            libc.sem_post(sem)
            print(
                f"faketime-watchdog: {name} was held for {held_limit:g} s (a process killed while holding it?); released it",
                file=sys.stderr,
            )
        time.sleep(POLL_SECONDS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
