// The outcome of a `lookahead torture disk` run, as printed and as JSON.

/// What a disk torture run found. Every violation count is zero in a correct cache.
public struct DiskTortureReport: Sendable, Codable, Equatable {
    /// How many times the child was killed and the directory checked.
    public var kills: Int
    /// Files found corrupt (dropped on opening or reading), by the checks and by the child.
    public var corruptReads: Int
    /// Reads that returned bytes other than a committed (or in-flight) store's.
    public var wrongData: Int
    /// Times the directory held more than the size limit after a sweep completed.
    public var limitExceeded: Int
    /// Committed entries, neither evicted nor removed, that were missing.
    public var missingEntries: Int
    /// Stores the children reported committed.
    public var committedStores: Int
    /// Entries the children's sweeps reported evicted.
    public var evictions: Int
    /// The seed the run derives from.
    public var seed: UInt64

    /// Whether nothing went wrong.
    public var isClean: Bool {
        corruptReads == 0 && wrongData == 0 && limitExceeded == 0 && missingEntries == 0
    }

    /// One line for people.
    public var summary: String {
        "kills \(kills), committed stores \(committedStores), evictions \(evictions): corrupt reads \(corruptReads), "
            + "wrong data \(wrongData), limit exceeded \(limitExceeded), missing entries \(missingEntries) (seed \(seed))"
    }
}
