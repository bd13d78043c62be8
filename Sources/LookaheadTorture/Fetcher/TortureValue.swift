// The values and errors of the torture loader: each derived from its key, so
// that a value or an error delivered for the wrong key is detectable.

import Lookahead

/// What the torture loader returns for a key: the key itself and a checksum
/// derived from it, so that a value swapped between two keys, or corrupted,
/// never passes for the right one.
public struct TortureValue: Sendable, Hashable {
    /// The key this value was loaded for.
    public let key: Int
    /// A function of `key` only.
    public let checksum: UInt64

    /// The one correct value of `key`.
    public static func expected(for key: Int) -> TortureValue {
        var random = TortureRandom(seed: UInt64(bitPattern: Int64(key)))
        return TortureValue(key: key, checksum: random.next())
    }

    private init(key: Int, checksum: UInt64) {
        self.key = key
        self.checksum = checksum
    }
}

/// A loader failure that the fetcher retries (it conforms to `TransientError`).
struct TransientTortureError: TransientError, Equatable {
    /// The key whose load failed.
    let key: Int
}

/// A loader failure that the fetcher reports at once.
struct PermanentTortureError: Error, Equatable {
    /// The key whose load failed.
    let key: Int
}
