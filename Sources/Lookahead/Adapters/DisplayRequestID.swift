// The identity of one display request in a coordinator's core: which cell
// (or row) asked, never where it sits, for index paths change under it.

/// One display request, as a coordinator's core knows it: the driver gives
/// each cell's request its own (the runtime coordinators a serial, the
/// simulator its item), so that two cells at one index path are two
/// requests.
package struct DisplayRequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package var rawValue: Int

    package init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    package var description: String { "#\(rawValue)" }
}
