// One range check for the numbers a user supplies (configurations, flags,
// query parameters): the same wording everywhere, naming the value, what is
// accepted and what was given.

/// Throws `failure(message)` unless `value` lies in `range`, the message
/// reading "`name` must be in `lower`...`upper`, got `value`".
///
/// A not-a-number is in no range, and infinity in none with finite bounds,
/// so a `Double` needs no separate finiteness check. For the server, the
/// torture runs and the tools (`package`): an app validates its own input.
package func checkRange<Value: Comparable, Failure: Error>(
    _ name: String, _ value: Value, in range: ClosedRange<Value>, else failure: (String) -> Failure
) throws(Failure) {
    guard range.contains(value) else {
        throw failure("\(name) must be in \(range.lowerBound)...\(range.upperBound), got \(value)")
    }
}

/// The latencies a model accepts, as the median and 99th percentile of a
/// distribution: a median in 0...`maximum` (above 0 unless `allowsZero`), a
/// 99th percentile from the median to `maximum`, and at most `maximumRatio`
/// times a median above 0. The feed server and the simulator each declare
/// theirs once, and every place that takes their latencies checks them with
/// ``latencyProblem(medianMilliseconds:p99Milliseconds:names:within:)``.
package typealias LatencyLimits = (allowsZero: Bool, maximum: Duration, maximumRatio: Double)

/// Why `median` and `p99`, in milliseconds, are not within `limits`, naming
/// them as `names` says (properties, or a command's options); `nil` when
/// they are.
package func latencyProblem(
    medianMilliseconds median: Double, p99Milliseconds p99: Double, names: (median: String, p99: String),
    within limits: LatencyLimits
) -> String? {
    let maximum = limits.maximum / .milliseconds(1)
    guard median.isFinite, limits.allowsZero ? median >= 0 : median > 0, median <= maximum else {
        let accepted =
            limits.allowsZero ? "in 0...\(plainNumber(maximum))" : "above 0 and at most \(plainNumber(maximum))"
        return "\(names.median) must be \(accepted) ms, got \(plainNumber(median))"
    }
    guard p99.isFinite, p99 >= median, p99 <= maximum else {
        return "\(names.p99) must be at least \(names.median) (\(plainNumber(median)) ms) and at most "
            + "\(plainNumber(maximum)) ms, got \(plainNumber(p99))"
    }
    if median > 0, p99 / median > limits.maximumRatio {
        return "\(names.p99) must be at most \(plainNumber(limits.maximumRatio)) times \(names.median) "
            + "(\(plainNumber(median)) ms), got \(plainNumber(p99)) ms"
    }
    return nil
}

/// `value` without a trailing `.0` when it is whole: how a message quotes a number.
package func plainNumber(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
