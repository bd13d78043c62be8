#if Tools
import ArgumentParser
import Lookahead

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

    private static func spaced(_ unit: String) -> String {
        unit.isEmpty ? "" : " " + unit
    }

    /// `value` without a trailing `.0` when it is whole.
    static func describe(_ value: Double) -> String { plainNumber(value) }
}
#endif
