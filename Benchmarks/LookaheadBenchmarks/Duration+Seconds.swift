extension Duration {
    /// The duration in seconds, as a `Double` (attosecond precision is not needed here).
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
