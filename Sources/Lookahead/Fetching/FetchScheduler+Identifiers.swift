/// The identifiers a `FetchScheduler` hands its driver: interests, load
/// attempts and groups, each checked against a generation so that a stale
/// one is harmless.
extension FetchScheduler {
    /// Identifies one interest while it lives: `FetchInterestID`, the
    /// same for every key and payload type, so that a ``FetchTask``
    /// holds it without naming them.
    public typealias InterestID = FetchInterestID

    /// Identifies one attempt of one load: the driver passes it back when the
    /// attempt ends. Every start of a load, retries included, has a new `LoadID`.
    public struct LoadID: Hashable, Sendable, CustomStringConvertible {
        /// The attempt's number, unique within the scheduler (for drivers and tests).
        @usableFromInline package let serial: UInt64
        @usableFromInline let slot: Int

        @inlinable public var description: String { "load #\(serial)" }

        @inlinable
        init(serial: UInt64, slot: Int) {
            self.serial = serial
            self.slot = slot
        }
    }

    /// Identifies a group of interests (one prefetcher).
    public struct GroupID: Hashable, Sendable {
        @usableFromInline let index: Int
        @usableFromInline let generation: UInt32

        @inlinable
        init(index: Int, generation: UInt32) {
            self.index = index
            self.generation = generation
        }

        /// The group of interests registered without a prefetcher: admits
        /// everything, never paused, each interest keeps its own priority.
        public static var `default`: GroupID { GroupID(index: 0, generation: 0) }
    }
}

/// Identifies one interest of a `FetchScheduler` while it lives (its
/// `InterestID`): a slot, checked against the slot's generation so that a
/// stale one is harmless.
@usableFromInline
package struct FetchInterestID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let slot: Int
    @usableFromInline let generation: UInt32

    @inlinable public var description: String { "interest \(slot).\(generation)" }

    @inlinable
    init(slot: Int, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}
