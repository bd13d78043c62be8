public import Foundation

/// Keys of any type that describes itself, such as `URL` or `Int`.
///
/// The key is the value's `description`, so it must identify the value uniquely
/// and stably across launches: `URL` and the integer types do, a struct's default
/// description may not. Values of different types with equal descriptions (the
/// `Int` 42 and the `String` "42") share an entry.
extension DiskCache {
    /// Returns the bytes stored for `key`'s description; see the `String` overload.
    public func data(forKey key: some CustomStringConvertible) -> Data? {
        data(forKey: key.description)
    }

    /// Stores `data` for `key`'s description; see the `String` overload.
    public func store(_ data: Data, forKey key: some CustomStringConvertible) throws {
        try store(data, forKey: key.description)
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
