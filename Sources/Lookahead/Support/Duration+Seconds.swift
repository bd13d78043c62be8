// The one conversion from `Duration` to a number of seconds, for the
// planners, estimators and tools that compute with speeds and rates.

extension Duration {
    /// The duration in seconds, as a `Double` (attosecond precision is lost
    /// past about 2⁻⁵² of the value, far below anything a frame can see).
    ///
    /// - Complexity: O(1).
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
