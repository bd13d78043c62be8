/// When and how often a failed load is tried again.
///
/// Only failures the driver classifies as transient are retried (a timeout,
/// a dropped connection, a 503), never a malformed payload or a 404. The delay
/// grows geometrically and is capped, so a flaky source cannot make the
/// scheduler spin, and the number of attempts is bounded, so an item that can
/// never load is reported as failed instead of being retried forever.
///
/// The delay is an action the scheduler hands to its driver; the driver sleeps
/// on its injected clock, which keeps the scheduler pure and the tests instant.
public struct RetryPolicy: Sendable, Hashable {
    /// The most times a load is started, the first attempt included. `1` disables retries.
    public var maxAttempts: Int
    /// The delay before the second attempt.
    public var initialDelay: Duration
    /// The factor applied to the delay after each further failure.
    public var multiplier: Int
    /// The longest delay between two attempts.
    public var maxDelay: Duration

    /// Creates a retry policy.
    ///
    /// - Precondition: `maxAttempts >= 1`, `multiplier >= 1`, delays not negative.
    @inlinable
    public init(
        maxAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(200),
        multiplier: Int = 2,
        maxDelay: Duration = .seconds(5)
    ) {
        precondition(maxAttempts >= 1, "RetryPolicy.maxAttempts must be at least 1, got \(maxAttempts)")
        precondition(multiplier >= 1, "RetryPolicy.multiplier must be at least 1, got \(multiplier)")
        precondition(initialDelay >= .zero && maxDelay >= .zero, "RetryPolicy delays must not be negative")
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
    }

    /// Three attempts, 200 ms then 400 ms apart, never more than 5 s.
    public static let `default` = RetryPolicy()

    /// A single attempt: failures are reported at once.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The delay before attempt number `attempt + 1`, after `attempt` failures,
    /// or `nil` when no attempt is left.
    ///
    /// - Complexity: O(attempt).
    @inlinable
    public func delay(afterFailures failures: Int) -> Duration? {
        guard failures >= 1, failures < maxAttempts else { return nil }
        var delay = initialDelay
        for _ in 1..<failures {
            delay = delay * multiplier
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }
}
