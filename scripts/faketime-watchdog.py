"""Releases libfaketime's shared semaphore when a killed process left it held.

scripts/pinned-clock.sh runs every process of a test run on one libfaketime semaphore and
shared-memory pair (FAKETIME_SHARED). libfaketime 0.9.10 takes that semaphore as each process
starts and around each stat(), for microseconds. A process killed with SIGKILL inside that
window (the crash tests kill child processes at will) never gives it back, and every later
process of the run then waits for it forever. This watchdog, started by pinned-clock.sh outside
libfaketime, posts the semaphore once it has been held for HELD_SECONDS in a row, and exits
when the shell that started the run does.

usage: faketime-watchdog.py SEMAPHORE_NAME OWNER_PID [HELD_SECONDS]
"""

import ctypes
import os
import sys
import time

POLL_SECONDS = 0.25


def main() -> int:
    name, owner = sys.argv[1], int(sys.argv[2])
    held_limit = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sem_open.restype = ctypes.c_void_p
    libc.sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.sem_getvalue.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    libc.sem_post.argtypes = [ctypes.c_void_p]
    sem = libc.sem_open(name.encode(), 0)
    if not sem:
        print(
            f"faketime-watchdog: cannot open {name}; not watching it", file=sys.stderr
        )
        return 0
    held_since = None
    value = ctypes.c_int()
    while os.path.exists(f"/proc/{owner}"):
        libc.sem_getvalue(sem, ctypes.byref(value))
        now = time.monotonic()
        if value.value > 0:
            held_since = None
        elif held_since is None:
            held_since = now
        elif now - held_since >= held_limit:
            libc.sem_post(sem)
            print(
                f"faketime-watchdog: {name} was held for {held_limit:g} s by a process that is gone; released it",
                file=sys.stderr,
            )
            held_since = None
        time.sleep(POLL_SECONDS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
