// The simulate command's text tables: a row per strategy, a table per scenario.

#if Tools
import Foundation
import LookaheadLive
import LookaheadSimulation

extension SimulationReport {
    /// One table per scenario, one row per strategy, then any finding.
    func table(engineTimes: [String: Duration]) -> String {
        var lines: [String] = []
        let header = [
            "strategy", "blank %", "blank cf", "visible cf", "ttc p50", "p95", "p99 ms", "requests", "cancels",
            "waste %", "at end %", "waste B %", "MB", "peak MB", "bottom s", "µs/frame",
        ]
        let widths = [11, 8, 9, 11, 8, 7, 8, 9, 8, 8, 9, 10, 8, 8, 9, 9]
        func row(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { index, pair in
                let (cell, width) = pair
                let padding = String(repeating: " ", count: max(0, width - cell.count))
                return index == 0 ? cell + padding : padding + cell
            }.joined(separator: " ")
        }
        for scenario in scenarios {
            lines.append("")
            lines.append("scenario \(scenario.name) (seed \(seed))")
            lines.append(row(header))
            for result in scenario.strategies {
                let micros =
                    engineTimes["\(scenario.name)/\(result.name)"].map {
                        String(
                            format: "%.1f",
                            Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6)
                    } ?? "-"
                lines.append(
                    row([
                        result.name, String(format: "%.2f", result.blankRatio * 100), "\(result.blankCellFrames)",
                        "\(result.visibleCellFrames)", String(format: "%.0f", result.ttcP50Ms),
                        String(format: "%.0f", result.ttcP95Ms), String(format: "%.0f", result.ttcP99Ms),
                        "\(result.requests)", "\(result.cancellations)",
                        String(format: "%.1f", result.wasteRatio * 100), Self.atEndPercent(of: result),
                        String(format: "%.1f", result.byteWasteRatio * 100),
                        String(format: "%.1f", Double(result.bytes) / 1_000_000),
                        String(format: "%.1f", Double(result.peakCacheBytes) / 1_000_000),
                        String(format: "%.1f", result.bottomWaitMs / 1_000), micros,
                    ]))
            }
            if let bound = scenario.lowerBound {
                lines.append(
                    "lower bound: \(bound.blankCellFrames) blank cell-frames no per-item strategy can go under "
                        + "(latency alone: \(bound.latencyBoundCellFrames))")
            }
            if let causal = scenario.causalReference {
                let adaptive = scenario.strategies.first { $0.name == SimulationStrategy.adaptive.rawValue }
                let ratio = adaptive.map {
                    String(
                        format: "; adaptive / causal %.2f×",
                        Double($0.blankCellFrames) / Double(max(1, causal.blankCellFrames)))
                }
                lines.append(
                    "causal reference: \(causal.blankCellFrames) blank cell-frames, \(causal.wastedLoads) wasted loads "
                        + "(plans against futures drawn from the gesture model\(ratio ?? ""))")
            }
            let decoding = scenario.strategies.compactMap { result in result.decoding.map { (result.name, $0) } }
            if !decoding.isEmpty {
                // Whether the decode slots ever bound: how many decodes waited for one, and how long.
                lines.append(
                    "decodes waiting for a slot: "
                        + decoding.map { name, stats in
                            guard stats.waited > 0 else { return "\(name) 0 of \(stats.decodes)" }
                            let waits = String(format: "p99 %.0f ms, max %.0f ms", stats.waitP99Ms, stats.waitMaxMs)
                            return "\(name) \(stats.waited) of \(stats.decodes) (\(waits))"
                        }.joined(separator: ", "))
            }
            for finding in scenario.findings {
                lines.append("finding: \(finding)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Of a strategy's wasted loads, the share for items near the last frame
    /// (the window held when the trace stops), in percent; "-" when none is wasted.
    static func atEndPercent(of result: StrategyResult) -> String {
        guard result.wastedLoads > 0 else { return "-" }
        return String(format: "%.1f", Double(result.wastedLoadsAtEnd) / Double(result.wastedLoads) * 100)
    }
}

extension ReplayComparison {
    /// Simulated and real blank ratios per strategy, and their ratio.
    func table() -> String {
        var lines = ["", "simulated vs real blank ratio (seed \(real.seed))"]
        let widths = [10, 11, 11, 10, 11]
        func row(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { index, pair in
                let (cell, width) = pair
                let padding = String(repeating: " ", count: max(0, width - cell.count))
                return index < 2 ? cell + padding : padding + cell
            }.joined(separator: " ")
        }
        lines.append(row(["scenario", "strategy", "simulated %", "real %", "real/sim"]))
        for entry in rows {
            lines.append(
                row([
                    entry.scenario, entry.strategy, String(format: "%.2f", entry.simulatedBlankRatio * 100),
                    String(format: "%.2f", entry.realBlankRatio * 100),
                    entry.ratio.map { String(format: "%.2f", $0) } ?? "-",
                ]))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
#endif
