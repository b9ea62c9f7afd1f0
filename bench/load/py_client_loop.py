"""Requests per second of one Python caller, in its own process.

    python bench/load/py_client_loop.py '{"mode": ..., "port": N, "token": "...", "warmup_s": x, "duration_s": y, "concurrency": n}'

Modes: ``client`` (``tock_client.Client.get_status()``), ``httpx`` (a hand-signed
``httpx.Client`` GET /status, JSON parsed, no response check), ``async-client``
(``tock_client.AsyncClient``, ``concurrency`` tasks) and ``async-httpx`` (a hand-signed
``httpx.AsyncClient``, as many tasks). Prints ``{"rps", "calls", "seconds"}``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

import tock_client

EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()


def signed_headers(key: bytes, method: str, target: str) -> dict[str, str]:
    timestamp = str(int(time.time()))
    nonce = secrets.token_urlsafe(16)
    text = "\n".join(["TOCK-HMAC-SHA256", timestamp, nonce, method, target, EMPTY_SHA256])
    mac = hmac.new(key, text.encode(), hashlib.sha256).hexdigest()
    return {"X-Tock-Timestamp": timestamp, "X-Tock-Nonce": nonce, "X-Tock-Signature": "v1=" + mac}


def timed(call: Callable[[], Any], warmup_s: float, duration_s: float) -> dict[str, float]:
    end = time.perf_counter() + warmup_s
    while time.perf_counter() < end:
        call()
    started = time.perf_counter()
    end = started + duration_s
    calls = 0
    while time.perf_counter() < end:
        call()
        calls += 1
    seconds = time.perf_counter() - started
    return {"rps": calls / seconds, "calls": calls, "seconds": seconds}


async def timed_async(
    call: Callable[[], Awaitable[Any]], warmup_s: float, duration_s: float, concurrency: int
) -> dict[str, float]:
    state = {"measuring": False, "stop": False, "calls": 0}

    async def worker() -> None:
        while not state["stop"]:
            await call()
            if state["measuring"]:
                state["calls"] += 1

    tasks = [asyncio.create_task(worker()) for _ in range(concurrency)]
    await asyncio.sleep(warmup_s)
    state["measuring"] = True
    started = time.perf_counter()
    await asyncio.sleep(duration_s)
    state["measuring"] = False
    seconds = time.perf_counter() - started
    state["stop"] = True
    await asyncio.gather(*tasks)
    return {"rps": state["calls"] / seconds, "calls": state["calls"], "seconds": seconds}


def main() -> None:
    config = json.loads(sys.argv[1])
    mode, port, token = config["mode"], config["port"], config["token"]
    warmup_s, duration_s = config["warmup_s"], config["duration_s"]
    concurrency = config.get("concurrency", 1)
    base = f"http://127.0.0.1:{port}"
    key = token.encode()

    if mode == "client":
        with tock_client.Client(token=token, port=port) as client:
            result = timed(client.get_status, warmup_s, duration_s)
    elif mode == "httpx":
        with httpx.Client(base_url=base, trust_env=False, follow_redirects=False) as http:

            def call() -> Any:
                response = http.get("/status", headers=signed_headers(key, "GET", "/status"))
                if response.status_code != 200:
                    raise RuntimeError(f"GET /status answered {response.status_code}")
                return response.json()

            result = timed(call, warmup_s, duration_s)
    elif mode == "async-client":

        async def run_client() -> dict[str, float]:
            async with tock_client.AsyncClient(token=token, port=port) as client:
                return await timed_async(client.get_status, warmup_s, duration_s, concurrency)

        result = asyncio.run(run_client())
    elif mode == "async-httpx":

        async def run_httpx() -> dict[str, float]:
            async with httpx.AsyncClient(base_url=base, trust_env=False, follow_redirects=False) as http:

                async def call() -> Any:
                    response = await http.get("/status", headers=signed_headers(key, "GET", "/status"))
                    if response.status_code != 200:
                        raise RuntimeError(f"GET /status answered {response.status_code}")
                    return response.json()

                return await timed_async(call, warmup_s, duration_s, concurrency)

        result = asyncio.run(run_httpx())
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
