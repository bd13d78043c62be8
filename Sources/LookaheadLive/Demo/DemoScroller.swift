import Foundation
import Lookahead

/// The scroll position of the interactive demo: key presses move it, flings
/// decelerate as UIScrollView's do.
///
/// Pure and clock-free: the driver calls `advance(by:)` once per frame with
/// the time since the previous one.
public struct DemoScroller: Hashable, Sendable {
    /// The content offset, in points, within `0...maxOffset`.
    public private(set) var offset: Double = 0
    /// The fling's velocity in points per second (positive down); 0 at rest.
    public private(set) var velocity: Double = 0
    /// The largest offset: the content's bottom at the viewport's bottom.
    public var maxOffset: Double
    /// How far one `j` / `k` moves, in points.
    public var rowHeight: Double
    /// The speed a fling starts at, in points per second.
    public var flingSpeed: Double
    /// The direction of the last move: +1 down, -1 up. A fling goes this way.
    public private(set) var direction: Double = 1
    /// What an app would tell its coordinator of the last change of motion,
    /// until taken (``takeAnnouncement()``).
    private var announcement: DemoAnnouncement?

    /// Below this speed (pt/s) a fling stops, as the trace generator's do.
    static let restingSpeed = 20.0

    /// Creates a scroller at the top.
    ///
    /// - Parameters:
    ///   - maxOffset: the largest offset; negative values count as 0.
    ///   - rowHeight: the height of one row of cells, in points.
    ///   - flingSpeed: the speed a fling starts at, in points per second.
    public init(maxOffset: Double, rowHeight: Double, flingSpeed: Double = 4_000) {
        self.maxOffset = max(0, maxOffset)
        self.rowHeight = rowHeight
        self.flingSpeed = flingSpeed
    }

    /// Applies a key's action. `.quit` changes nothing: the driver handles it.
    public mutating func apply(_ action: DemoAction) {
        let wasFlinging = velocity != 0
        switch action {
        case .scroll(let rows):
            velocity = 0
            if rows != 0 { direction = rows > 0 ? 1 : -1 }
            offset = clamped(offset + Double(rows) * rowHeight)
        case .fling:
            if offset >= maxOffset && direction > 0 { direction = -1 }
            if offset <= 0 && direction < 0 { direction = 1 }
            velocity = direction * flingSpeed
            announcement = .fling(target: restingOffset, velocity: velocity)
            return
        case .top:
            velocity = 0
            direction = 1
            offset = 0
        case .bottom:
            velocity = 0
            direction = -1
            offset = maxOffset
        case .quit:
            return
        }
        // A key that moves the list catches the fling under way.
        if wasFlinging { announcement = .ended }
    }

    /// Where the fling under way will rest (the offset, at rest): what
    /// UIKit's `targetContentOffset` says when the drag ends.
    public var restingOffset: Double {
        clamped(offset + ScrollPhysics.projectedDistance(velocity: velocity))
    }

    /// What an app would tell its coordinator since the last call: a fling
    /// and where it will rest, or that the fling is over (a key moved the
    /// list, or it came to rest); `nil` if nothing changed.
    mutating func takeAnnouncement() -> DemoAnnouncement? {
        defer { announcement = nil }
        return announcement
    }

    /// Moves a fling on by `seconds`, decelerating at 0.998 per millisecond;
    /// it stops below 20 pt/s or at an edge.
    public mutating func advance(by seconds: Double) {
        guard velocity != 0, seconds > 0 else { return }
        offset = clamped(offset + ScrollPhysics.distance(after: seconds, velocity: velocity))
        velocity *= pow(ScrollPhysics.decelerationRate, seconds * 1_000)
        if abs(velocity) < Self.restingSpeed || offset <= 0 || offset >= maxOffset {
            velocity = 0
            announcement = .ended
        }
    }

    private func clamped(_ value: Double) -> Double {
        min(max(value, 0), maxOffset)
    }
}
