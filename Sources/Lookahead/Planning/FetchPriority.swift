/// How urgently a load is wanted.
///
/// Five levels, as in Nuke and `Operation.QueuePriority`. A load shared by
/// several interests runs at the highest of their priorities. Visible items
/// should be fetched at `.high` or above and prefetches below, so that what
/// the user is looking at always goes first.
public enum FetchPriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case veryLow = 0
    case low = 1
    case normal = 2
    case high = 3
    case veryHigh = 4

    @inlinable
    public static func < (lhs: FetchPriority, rhs: FetchPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        switch self {
        case .veryLow: "veryLow"
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        case .veryHigh: "veryHigh"
        }
    }
}
