/// How many interests a load has at each priority, so that the load's
/// priority (the highest among them) is found in O(1) when one joins or leaves.
@usableFromInline
struct PriorityCounts: Hashable, Sendable {
    @usableFromInline
    var storage = SIMD8<Int32>()

    @inlinable
    init() {}

    @inlinable
    subscript(priority: FetchPriority) -> Int32 {
        get { storage[priority.rawValue] }
        set {
            assert(newValue >= 0, "PriorityCounts went negative at \(priority)")
            storage[priority.rawValue] = newValue
        }
    }

    /// The highest priority with a count above zero.
    @inlinable
    var highest: FetchPriority? {
        var index = FetchPriority.veryHigh.rawValue
        while index >= 0 {
            if storage[index] > 0 { return FetchPriority(rawValue: index) }
            index -= 1
        }
        return nil
    }

    @inlinable
    var total: Int32 { storage.wrappedSum() }
}
