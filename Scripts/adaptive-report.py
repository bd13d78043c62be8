#!/usr/bin/env python3
"""Compares the adaptive policy with the fixed windows and the oracle over many seeds.

Runs `lookahead simulate --seed N --json` for each seed (release build) and
prints, per scenario and seed, adaptive's blank cell-frames against the best
of system/nuke/texture, the oracle and the lower bound, its gap closure
((best fixed − adaptive) / (best fixed − bound): 1 means no avoidable blank
left), and its waste ratio against texture's; then a summary per scenario
(sums over the seeds) and how many runs meet each target.

    python3 Scripts/adaptive-report.py --seeds 2-11
    python3 Scripts/adaptive-report.py --seeds 1 --binary .build/release/lookahead

Seed 1 is the seed the policy was tuned on; report seeds 2 and up as held out.
"""

import argparse
import json
import os
import subprocess
import sys

FIXED = ["system", "nuke", "texture"]
STRATEGIES = FIXED + ["adaptive", "oracle"]


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if "-" in part:
            low, high = part.split("-")
            seeds.extend(range(int(low), int(high) + 1))
        else:
            seeds.append(int(part))
    return seeds


def run(binary, seed):
    command = [binary, "simulate", "--seed", str(seed), "--json"]
    for strategy in STRATEGIES:
        command += ["--strategy", strategy]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="2-11", help="seeds, e.g. 2-11 or 1,3,5 (default 2-11)")
    parser.add_argument("--binary", default=".build/release/lookahead", help="the lookahead binary (release build)")
    arguments = parser.parse_args()
    if not os.path.exists(arguments.binary):
        sys.exit(f"no binary at {arguments.binary}: run `swift build -c release` first, or pass --binary")

    rows = []
    for seed in parse_seeds(arguments.seeds):
        print(f"seed {seed}…", file=sys.stderr)
        report = run(arguments.binary, seed)
        for scenario in report["scenarios"]:
            results = {result["name"]: result for result in scenario["strategies"]}
            best_name = min(FIXED, key=lambda name: results[name]["blankCellFrames"])
            rows.append({
                "seed": seed,
                "scenario": scenario["name"],
                "adaptive": results["adaptive"]["blankCellFrames"],
                "best": results[best_name]["blankCellFrames"],
                "bestName": best_name,
                "oracle": results["oracle"]["blankCellFrames"],
                "bound": scenario["lowerBound"]["blankCellFrames"],
                "waste": results["adaptive"]["wasteRatio"],
                "textureWaste": results["texture"]["wasteRatio"],
            })

    def ratio(a, b):
        return a / b if b else (1.0 if a == 0 else float("inf"))

    def closure(best, adaptive, bound):
        # Nothing avoidable to close when the best fixed window is at the bound.
        return (best - adaptive) / (best - bound) if best > bound else float("nan")

    print("| seed | scenario | adaptive | best fixed | ratio | oracle | ratio | bound | oracle / bound | gap closure "
          "| waste adaptive / texture |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['seed']} | {row['scenario']} | {row['adaptive']:,} | {row['best']:,} ({row['bestName']}) "
            f"| {ratio(row['adaptive'], row['best']):.2f} | {row['oracle']:,} | {ratio(row['adaptive'], row['oracle']):.2f} "
            f"| {row['bound']:,} | {ratio(row['oracle'], row['bound']):.2f} "
            f"| {closure(row['best'], row['adaptive'], row['bound']):.2f} "
            f"| {row['waste']:.3f} / {row['textureWaste']:.3f} |")

    print()
    print("| scenario | adaptive | best fixed | ratio | oracle | ratio | bound | gap closure | runs ≤ 0.5× best "
          "| runs ≤ 1.25× oracle | runs waste ≤ texture |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in dict.fromkeys(row["scenario"] for row in rows):
        group = [row for row in rows if row["scenario"] == name]
        adaptive = sum(row["adaptive"] for row in group)
        best = sum(row["best"] for row in group)
        oracle = sum(row["oracle"] for row in group)
        bound = sum(row["bound"] for row in group)
        half = sum(1 for row in group if row["adaptive"] <= 0.5 * row["best"])
        near = sum(1 for row in group if row["adaptive"] <= 1.25 * row["oracle"])
        lean = sum(1 for row in group if row["waste"] <= row["textureWaste"] + 1e-12)
        print(
            f"| {name} | {adaptive:,} | {best:,} | {ratio(adaptive, best):.2f} | {oracle:,} | {ratio(adaptive, oracle):.2f} "
            f"| {bound:,} | {closure(best, adaptive, bound):.2f} | {half}/{len(group)} | {near}/{len(group)} | {lean}/{len(group)} |")


if __name__ == "__main__":
    main()
