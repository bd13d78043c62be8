#!/usr/bin/env python3
"""Writes a slow reading trace as CSV (time_ms,offset) on standard output.

Slower than the simulator's `reading` style: a drag of 100–400 pt/s for
0.4–1 s, a third of them released into a fling at 1–1.3× the drag's speed
(UIScrollView's 0.998 per ms), a short step back one time in twenty, and a
pause of 2–10 s after 85 % of gestures. Seeded: the same seed writes the
same trace.

    python3 Scripts/slow-reading-trace.py --seed 1 > /tmp/slow-1.csv
    lookahead simulate --scenario feed --scenario slow-network --trace /tmp/slow-1.csv --json
"""

import argparse
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=120)
    arguments = parser.parse_args()
    if not 1 <= arguments.seconds <= 3_600:
        parser.error("--seconds must be in 1…3600")
    rng = random.Random(arguments.seed)
    frame = 1 / 60
    time = 0.0
    offset = 0.0
    print("time_ms,offset")

    def emit():
        print(f"{time * 1000:.3f},{offset:.3f}")

    emit()
    while time < arguments.seconds:
        direction = -1 if rng.random() < 0.05 and offset > 500 else 1
        speed = rng.uniform(100, 400)
        duration = rng.uniform(0.4, 1.0) if direction > 0 else rng.uniform(0.15, 0.4)
        elapsed = 0.0
        while elapsed < duration:
            time += frame
            elapsed += frame
            offset = max(0.0, offset + direction * speed * frame)
            emit()
        if direction > 0 and rng.random() < 1 / 3:
            velocity = speed * rng.uniform(1.0, 1.3)
            while velocity > 20:
                time += frame
                offset += velocity * frame
                velocity *= 0.998 ** (frame * 1000)
                emit()
        if rng.random() < 0.85:
            pause = rng.uniform(2, 10)
            end = time + pause
            while time < end:
                time += frame
                emit()


if __name__ == "__main__":
    main()
