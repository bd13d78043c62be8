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
        let baseline = counts.baseline
        let lookahead = counts.lookahead
        lines.append(
            row(
                "fetchedData hits/s", String(format: "%.0f", baseline.fetchedDataHitsPerSecond),
                String(format: "%.0f", lookahead.fetchedDataHitsPerSecond)))
        lines.append(row("fetchedData misses", "\(baseline.fetchedDataMisses)", "\(lookahead.fetchedDataMisses)"))
        lines.append(
            row(
                "fetch-cancel loads started", "\(baseline.fetchCancelLoadsStarted)",
                "\(lookahead.fetchCancelLoadsStarted)"))
        lines.append(
            row(
                "fetch-cancel completed after cancel", "\(baseline.fetchCancelCompletedAfterCancel)",
                "\(lookahead.fetchCancelCompletedAfterCancel)"))
        lines.append(
            row(
                "mixed: s until last call returned", String(format: "%.6f", baseline.mixedIssueSeconds),
                String(format: "%.6f", lookahead.mixedIssueSeconds)))
        lines.append(
            row(
                "fetch-cancel: s until last call ret.", String(format: "%.6f", baseline.fetchCancelIssueSeconds),
                String(format: "%.6f", lookahead.fetchCancelIssueSeconds)))
        lines.append(row("mixed loads started", "\(baseline.mixedLoadsStarted)", "\(lookahead.mixedLoadsStarted)"))
        lines.append(
            row(
                "mixed completions called/asked",
                "\(baseline.mixedCompletionsCalled)/\(baseline.mixedCompletionsRequested)",
                "\(lookahead.mixedCompletionsCalled)/\(lookahead.mixedCompletionsRequested)"))
        for (workload, statistics) in [
            ("mixed", lookahead.mixedStatistics), ("fetch-cancel", lookahead.fetchCancelStatistics),
        ] {
            guard let statistics else { continue }
            lines.append(
                "Lookahead's own statistics, \(workload): \(statistics.loadsStarted) started, "
                    + "\(statistics.loadsCompleted) completed, \(statistics.loadsFailed) failed, "
                    + "\(statistics.loadsCancelled) cancelled, \(statistics.cacheHits) cache hits")
        }
        lines.append(
            row(
                "peak RSS, MiB (largest process)", String(format: "%.1f", Double(baseline.peakRSSBytes) / 1_048_576),
                String(format: "%.1f", Double(lookahead.peakRSSBytes) / 1_048_576)))
        return lines.joined(separator: "\n") + "\n"
    }

    private func row(_ label: String, _ columns: String...) -> String {
        let first = label.padding(toLength: 36, withPad: " ", startingAt: 0)
        return first + columns.map { String(repeating: " ", count: max(0, 14 - $0.count)) + $0 }.joined()
    }
}
