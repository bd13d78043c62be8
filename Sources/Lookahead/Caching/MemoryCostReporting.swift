// Values that know what they cost in memory, so that the default memory
// cache can hold a byte budget rather than an entry count.

/// A value that reports what it costs to keep in memory, in bytes.
///
/// ``MemoryCache`` uses it when no explicit cost is given: a cache of values
/// that report their cost holds the byte budget ``MemoryCache/defaultCostLimit``
/// rather than a count of entries. Report what the value keeps alive (an
/// image's decoded bitmap, a payload's bytes), not `MemoryLayout.size`.
///
/// ```swift
/// struct Thumbnail: MemoryCostReporting, Sendable {
///     var pixels: [UInt8]
///     var memoryCost: Int { pixels.count }
/// }
/// ```
public protocol MemoryCostReporting {
    /// The bytes this value keeps alive. Must not be negative.
    var memoryCost: Int { get }
}

extension String: MemoryCostReporting {
    /// The string's UTF-8 bytes.
    ///
    /// - Complexity: O(1) for native strings.
    public var memoryCost: Int { utf8.count }
}

extension Array: MemoryCostReporting where Element == UInt8 {
    /// The array's bytes.
    public var memoryCost: Int { count }
}
