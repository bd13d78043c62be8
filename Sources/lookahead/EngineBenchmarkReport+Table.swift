// The engine benchmark's report as the table `lookahead bench-engine` prints.

#if Tools
import Foundation
import Lookahead
import LookaheadBenchmarks

extension EngineBenchmarkReport {
    /// The human-readable form: one row per workload, then the counts.
    func table() -> String {
        var lines: [String] = []
        lines.append(row("workload", "baseline s", "Lookahead s", "ratio"))
        for result in results {
            lines.append(
                row(
                    result.name, String(format: "%.6f", result.baseline), String(format: "%.6f", result.lookahead),
                    String(format: "%.2f×", result.ratio)))
        }
        lines.append("")
        lines.append(row("", "baseline", "Lookahead"))
        for (label, value) in Self.countRows {
            lines.append(row(label, value(counts.baseline), value(counts.lookahead)))
        }
        for (workload, statistics) in [
            ("mixed", counts.lookahead.mixedStatistics), ("fetch-cancel", counts.lookahead.fetchCancelStatistics),
        ] {
            guard let statistics else { continue }
            lines.append(
                "Lookahead's own statistics, \(workload): \(statistics.loadsStarted) started, "
                    + "\(statistics.loadsCompleted) completed, \(statistics.loadsFailed) failed, "
                    + "\(statistics.loadsCancelled) cancelled, \(statistics.cacheHits) cache hits")
        }
        let peakRSS = { (counts: Counts) in String(format: "%.1f", Double(counts.peakRSSBytes) / 1_048_576) }
        lines.append(row("peak RSS, MiB (largest process)", peakRSS(counts.baseline), peakRSS(counts.lookahead)))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The rows of the counts table: a label, and how one fetcher's counts
    /// read in its column.
    private static let countRows: [(label: String, value: @Sendable (Counts) -> String)] = [
        ("fetchedData hits/s", { String(format: "%.0f", $0.fetchedDataHitsPerSecond) }),
        ("fetchedData misses", { "\($0.fetchedDataMisses)" }),
        ("fetch-cancel loads started", { "\($0.fetchCancelLoadsStarted)" }),
        ("fetch-cancel completed after cancel", { "\($0.fetchCancelCompletedAfterCancel)" }),
        ("mixed: s until last call returned", { String(format: "%.6f", $0.mixedIssueSeconds) }),
        ("fetch-cancel: s until last call ret.", { String(format: "%.6f", $0.fetchCancelIssueSeconds) }),
        ("mixed loads started", { "\($0.mixedLoadsStarted)" }),
        ("mixed completions called/asked", { "\($0.mixedCompletionsCalled)/\($0.mixedCompletionsRequested)" }),
    ]

    private func row(_ label: String, _ columns: String...) -> String {
        let first = label.padding(toLength: 36, withPad: " ", startingAt: 0)
        return first + columns.map { String(repeating: " ", count: max(0, 14 - $0.count)) + $0 }.joined()
    }
}
#endif
