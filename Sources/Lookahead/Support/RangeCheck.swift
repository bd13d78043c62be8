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
