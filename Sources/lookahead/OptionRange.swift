import ArgumentParser

/// Range checks for numeric command-line options, with messages that name
/// the option, its value and what is accepted: every number a user types is
/// checked here before anything is built from it (a trap is a bug).
enum OptionRange {
    /// Fails unless `value` is finite and in `range`.
    static func check(
        _ value: Double, _ option: String, in range: ClosedRange<Double>, _ unit: String
    ) throws(ValidationError) {
        guard value.isFinite, range.contains(value) else {
            throw ValidationError(
                "\(option) must be in \(describe(range.lowerBound))...\(describe(range.upperBound))\(spaced(unit)), "
                    + "got \(value)")
        }
    }

    /// Fails unless `value` is in `range`.
    static func check(
        _ value: Int, _ option: String, in range: ClosedRange<Int>, _ unit: String
    ) throws(ValidationError) {
        guard range.contains(value) else {
            throw ValidationError(
                "\(option) must be in \(range.lowerBound)...\(range.upperBound)\(spaced(unit)), got \(value)")
        }
    }

    /// Fails unless `median` and `p99` are latencies in milliseconds with
    /// `lowest <= median <= p99 <= maximum` (a median of exactly 0 only if
    /// `lowest` is 0) and, for a positive median, `p99 / median <= maximumRatio`.
    ///
    /// The names are the options the values came from.
    static func checkLatencies(
        median: Double, _ medianOption: String, p99: Double, _ p99Option: String, allowsZero: Bool,
        maximumMilliseconds: Double, maximumRatio: Double
    ) throws(ValidationError) {
        let bound = describe(maximumMilliseconds)
        guard median.isFinite, allowsZero ? median >= 0 : median > 0, median <= maximumMilliseconds else {
            let accepted = allowsZero ? "in 0...\(bound) ms" : "above 0 and at most \(bound) ms"
            throw ValidationError("\(medianOption) must be \(accepted), got \(median)")
        }
        guard p99.isFinite, p99 >= median, p99 <= maximumMilliseconds else {
            throw ValidationError(
                "\(p99Option) must be at least \(medianOption) (\(describe(median)) ms) and at most \(bound) ms, "
                    + "got \(p99)")
        }
        if median > 0, p99 / median > maximumRatio {
            throw ValidationError(
                "\(p99Option) must be at most \(describe(maximumRatio)) times \(medianOption) "
                    + "(\(describe(median)) ms), got \(describe(p99)) ms")
        }
    }

    private static func spaced(_ unit: String) -> String {
        unit.isEmpty ? "" : " " + unit
    }

    /// `value` without a trailing `.0` when it is whole.
    static func describe(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
