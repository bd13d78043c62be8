// The parameters of a `lookahead torture disk` run, range-checked.

import Lookahead

/// What a disk torture run does: how many times it kills the writer, the
/// seed, and the shape of the cache and the writes.
public struct DiskTortureConfiguration: Sendable, Codable, Equatable {
    /// How many times the child process is killed (and the directory checked).
    public var kills: Int
    /// The seed every random choice derives from.
    public var seed: UInt64
    /// How many distinct keys the child writes.
    public var keyCount = 64
    /// The largest payload of one store, in bytes.
    public var maxPayloadSize = 16 * 1024
    /// The cache's size limit, in bytes.
    public var sizeLimit = 256 * 1024
    /// The cache's trim ratio.
    public var trimRatio = 0.7
    /// The longest the child runs before it is killed, in milliseconds; each
    /// kill comes after a seeded delay up to this.
    public var maxRunMilliseconds = 300

    /// A configuration of `kills` from `seed`, the other fields at their
    /// defaults: small enough that sweeps happen every few stores.
    public init(kills: Int, seed: UInt64) {
        self.kills = kills
        self.seed = seed
    }

    /// Throws a message naming the first value out of range.
    public func validate() throws(DiskTortureError) {
        try checkRange("--kills", kills, in: 1...100_000, else: DiskTortureError.invalid)
        try checkRange("keyCount", keyCount, in: 1...10_000, else: DiskTortureError.invalid)
        guard (0...(16 << 20)).contains(maxPayloadSize) else {
            throw .invalid("maxPayloadSize must be in 0...16 MiB, got \(maxPayloadSize)")
        }
        guard sizeLimit >= 2 * (maxPayloadSize + 80), sizeLimit <= 1 << 30 else {
            throw .invalid("sizeLimit must hold two of the largest entries and be at most 1 GiB, got \(sizeLimit)")
        }
        guard trimRatio.isFinite, (0...1).contains(trimRatio) else {
            throw .invalid("trimRatio must be in 0...1, got \(trimRatio)")
        }
        try checkRange("maxRunMilliseconds", maxRunMilliseconds, in: 1...60_000, else: DiskTortureError.invalid)
    }

    /// The name of key number `index`.
    static func keyName(_ index: Int) -> String {
        "key-\(index)"
    }
}
