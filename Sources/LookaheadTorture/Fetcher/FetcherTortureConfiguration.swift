// The parameters of `lookahead torture fetcher`, range-checked before a run.

import Lookahead

/// What a fetcher torture run does: how many operations, from which seed, on
/// how many threads, and whether it includes re-entrant releases.
public struct FetcherTortureConfiguration: Sendable {
    /// The operations to perform, over all threads (1…10⁹).
    public var operations: Int
    /// The seed every operation sequence and loader outcome derives from.
    public var seed: UInt64
    /// The threads issuing operations at once (1…64).
    public var threads = 4
    /// Whether `didComplete` closures and observation handlers capture other
    /// prefetchers and observations of the same fetcher, so that releasing one
    /// releases another from inside the fetcher.
    public var includesReentrantRelease = true
    /// The keys operations draw from (2…100 000): few enough that requests
    /// share loads and hit the cache.
    public var keyCount = 48
    /// Operations between two checkpoints, where the run waits for the fetcher
    /// to be idle and checks that every request has ended (1…10⁶).
    public var operationsPerCheckpoint = 4_096

    /// The allowed range of ``operations``.
    public static let operationsRange = 1...1_000_000_000
    /// The allowed range of ``threads``.
    public static let threadsRange = 1...64
    /// The allowed range of ``keyCount``.
    public static let keyCountRange = 2...100_000
    /// The allowed range of ``operationsPerCheckpoint``.
    public static let operationsPerCheckpointRange = 1...1_000_000

    /// Creates a configuration of `operations` from `seed`, the other
    /// fields at their defaults; ``validate()`` checks it.
    public init(operations: Int, seed: UInt64) {
        self.operations = operations
        self.seed = seed
    }

    /// Throws a ``FetcherTortureConfigurationError`` naming the first value out of range.
    public func validate() throws(FetcherTortureConfigurationError) {
        let invalid = FetcherTortureConfigurationError.init(message:)
        try checkRange("operations", operations, in: Self.operationsRange, else: invalid)
        try checkRange("threads", threads, in: Self.threadsRange, else: invalid)
        try checkRange("keyCount", keyCount, in: Self.keyCountRange, else: invalid)
        try checkRange(
            "operationsPerCheckpoint", operationsPerCheckpoint, in: Self.operationsPerCheckpointRange, else: invalid)
    }
}

/// A ``FetcherTortureConfiguration`` value out of its range.
public struct FetcherTortureConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What a command line prints: the value's name, its range and the value
    /// given, worded as every range check of the project words it.
    public let message: String

    public var description: String { message }
}
