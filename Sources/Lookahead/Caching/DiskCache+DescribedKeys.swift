// `DiskCache` keyed by any value that describes itself, such as `Int` or `URL`.

/// Keys of any type that describes itself, such as `URL` or `Int`.
///
/// The key is the value's `description`, so it must identify the value uniquely
/// and stably across launches: `URL` and the integer types do, a struct's default
/// description may not. Values of different types with equal descriptions (the
/// `Int` 42 and the `String` "42") share an entry.
extension DiskCache {
    /// Returns the bytes stored for `key`'s description; see the `String` overload.
    public func data(forKey key: some CustomStringConvertible) -> [UInt8]? {
        data(forKey: key.description)
    }

    /// Stores `bytes` for `key`'s description; see the `String` overload.
    public func store(_ bytes: some Collection<UInt8>, forKey key: some CustomStringConvertible) throws {
        try store(bytes, forKey: key.description)
    }

    /// Removes the entry for `key`'s description; see the `String` overload.
    public func removeData(forKey key: some CustomStringConvertible) {
        removeData(forKey: key.description)
    }

    /// Returns whether the cache holds an entry for `key`'s description; see the `String` overload.
    public func contains(_ key: some CustomStringConvertible) -> Bool {
        contains(key.description)
    }
}
