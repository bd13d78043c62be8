#!/usr/bin/env python3
"""Measures how much the feed server's memory grows under many waiting requests.

Starts `lookahead serve --port 0` (on 127.0.0.1 only), reads its resident set
size from /proc/PID/status, fires N concurrent requests for padded item bodies
that each wait out an injected latency, samples the server's RSS every 20 ms
until every response has been read, and prints the peak growth. Exits 1 if the
growth reaches --limit-mb, or if a request failed in an unexpected way.

Usage: Scripts/server-memory-check.py [path/to/lookahead]
           [--requests 300] [--latency-ms 6000] [--bytes 1048576] [--limit-mb 100]
Without a path it uses the release build (`swift build -c release --traits Tools --show-bin-path`).
Only loopback traffic; bounded in count (at most 2,000 requests) and time.
"""

import argparse
import concurrent.futures
import http.client
import os
import subprocess
import sys
import threading
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def fetch(port, path, timeout):
    """One GET on its own connection: (status, body length, error text or None)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        return response.status, len(body), None
    except Exception as error:  # reported, not raised: the run goes on
        return None, 0, f"{type(error).__name__}: {error}"
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--latency-ms", type=int, default=6000)
    parser.add_argument("--bytes", type=int, default=1048576)
    parser.add_argument("--limit-mb", type=float, default=100)
    arguments = parser.parse_args()
    if not 1 <= arguments.requests <= 2000:
        parser.error(f"--requests must be in 1...2000, got {arguments.requests}")
    if not 0 <= arguments.latency_ms <= 60000:
        parser.error(f"--latency-ms must be in 0...60000, got {arguments.latency_ms}")

    binary = arguments.binary
    if binary is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        path = subprocess.run(
            ["swift", "build", "-c", "release", "--show-bin-path"],
            cwd=root, check=True, capture_output=True, text=True).stdout.strip()
        binary = os.path.join(path, "lookahead")

    server = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "error"],
        stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            print(f"server-memory-check: unexpected first line from the server: {url!r}", file=sys.stderr)
            return 1
        port = int(url.rsplit(":", 1)[1])
        # Warm up (first allocations, thread pools) before the baseline.
        for _ in range(3):
            fetch(port, "/v0/item/1.json?bytes=1024", timeout=10)
        time.sleep(0.5)
        baseline = rss_kib(server.pid)

        peak = baseline
        done = threading.Event()

        def sample():
            nonlocal peak
            while not done.is_set():
                peak = max(peak, rss_kib(server.pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        path = f"/v0/item/{{}}.json?latency_ms={arguments.latency_ms}&bytes={arguments.bytes}"
        timeout = arguments.latency_ms / 1000 + 60
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.requests) as pool:
            results = list(pool.map(
                lambda index: fetch(port, path.format(index % 1000 + 1), timeout), range(arguments.requests)))
        elapsed = time.monotonic() - started
        done.set()
        sampler.join()
        peak = max(peak, rss_kib(server.pid))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()

    statuses = {}
    for status, _, error in results:
        key = status if status is not None else error
        statuses[key] = statuses.get(key, 0) + 1
    full = sum(1 for status, length, _ in results if status == 200 and length == arguments.bytes)
    growth_mb = (peak - baseline) * 1024 / 1e6
    print(f"requests: {arguments.requests} concurrent, latency_ms={arguments.latency_ms}, "
          f"bytes={arguments.bytes}; finished in {elapsed:.1f} s")
    print(f"responses: {statuses}; full bodies: {full}")
    print(f"server RSS: baseline {baseline / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB, "
          f"growth {growth_mb:.1f} MB (limit {arguments.limit_mb:g} MB)")
    unexpected = [key for key in statuses if key not in (200, 503)]
    if unexpected:
        print(f"server-memory-check: FAIL: unexpected outcomes {unexpected}", file=sys.stderr)
        return 1
    if growth_mb >= arguments.limit_mb:
        print("server-memory-check: FAIL: the server grew too much", file=sys.stderr)
        return 1
    print("server-memory-check: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
