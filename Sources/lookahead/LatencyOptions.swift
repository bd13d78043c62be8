#if Tools
import ArgumentParser
import Lookahead
import LookaheadServer

/// `--latency-median` and `--latency-p99`: the latency a feed server adds to
/// its answers, for `serve` and for the server `demo` starts, checked by the
/// server's own rule (`FaultInjection.latencyLimits`). Without
/// `--latency-median` the command's own default applies.
struct LatencyOptions: ParsableArguments {
    @Option(help: "The median added latency, in milliseconds (0...600000).")
    var latencyMedian: Double?

    @Option(
        help: "The 99th-percentile added latency, in milliseconds (default: the median; at most 1000 times the median)."
    )
    var latencyP99: Double?

    /// Checks the two against each other and against the server's limits.
    func validate() throws {
        if latencyP99 != nil && latencyMedian == nil {
            throw ValidationError("--latency-p99 needs --latency-median")
        }
        if let latencyMedian {
            let problem = latencyProblem(
                medianMilliseconds: latencyMedian, p99Milliseconds: latencyP99 ?? latencyMedian,
                names: ("--latency-median", "--latency-p99"), within: FaultInjection.latencyLimits)
            if let problem { throw ValidationError(problem) }
        }
    }

    /// The latencies given, in milliseconds (the p99 defaulting to the
    /// median), or `defaults` without `--latency-median`.
    func milliseconds(defaults: (median: Double, p99: Double)) -> (median: Double, p99: Double) {
        guard let latencyMedian else { return defaults }
        return (latencyMedian, latencyP99 ?? latencyMedian)
    }
}
#endif
