#if Tools
import Foundation
import Lookahead

/// The scroll position of the interactive demo: key presses move it, flings
/// decelerate as UIScrollView's do, and jumps to the top or the bottom animate
/// as UIKit's scroll to the top does.
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
    /// The animated jump under way.
    private var jump: Jump?

    /// Whether a fling or an animated jump is under way.
    public var isMoving: Bool { velocity != 0 || jump != nil }

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
    ///
    /// `g` and `G` start an animated scroll of 0.3 s, eased in and out as
    /// UIKit's scroll to the top is, and announce its target, as an app tells
    /// its coordinator; a key that moves the list stops a fling or a jump
    /// under way.
    public mutating func apply(_ action: DemoAction) {
        let wasMoving = isMoving
        switch action {
        case .scroll(let rows):
            stop()
            if rows != 0 { direction = rows > 0 ? 1 : -1 }
            offset = clamped(offset + Double(rows) * rowHeight)
        case .fling:
            stop()
            if offset >= maxOffset && direction > 0 { direction = -1 }
            if offset <= 0 && direction < 0 { direction = 1 }
            velocity = direction * flingSpeed
            announcement = .fling(target: restingOffset, velocity: velocity)
            return
        case .top, .bottom:
            stop()
            // From the top a fling goes down; from the bottom, up.
            let target = action == .top ? 0 : maxOffset
            direction = action == .top ? 1 : -1
            if target != offset {
                jump = Jump(from: offset, to: target, elapsed: 0)
                announcement = .animatedScroll(target: target)
                return
            }
        case .quit:
            return
        }
        // A key that moves the list catches the fling or the jump under way.
        if wasMoving { announcement = .ended }
    }

    /// Stops a fling or a jump where it is.
    private mutating func stop() {
        velocity = 0
        jump = nil
    }

    /// Where the fling under way will rest (the offset, at rest): what
    /// UIKit's `targetContentOffset` says when the drag ends.
    public var restingOffset: Double {
        clamped(offset + ScrollPhysics.projectedDistance(velocity: velocity))
    }

    /// What an app would tell its coordinator since the last call: a fling
    /// and where it will rest, a jump and its target, or that the motion is
    /// over (a key moved the list, or it came to rest); `nil` if nothing
    /// changed.
    mutating func takeAnnouncement() -> DemoAnnouncement? {
        defer { announcement = nil }
        return announcement
    }

    /// Moves a fling on by `seconds`, decelerating at 0.998 per millisecond
    /// (it stops below 20 pt/s or at an edge), or a jump along its animation;
    /// either announces its end on the frame it stops.
    public mutating func advance(by seconds: Double) {
        guard seconds > 0 else { return }
        if let jump {
            let elapsed = jump.elapsed + seconds
            let duration = ScrollPhysics.animatedScrollDuration
            if elapsed >= duration {
                offset = clamped(jump.to)
                self.jump = nil
                announcement = .ended
            } else {
                let progress = ScrollPhysics.animatedScrollProgress(elapsed: elapsed, duration: duration)
                offset = clamped(jump.from + (jump.to - jump.from) * progress)
                self.jump?.elapsed = elapsed
            }
            return
        }
        guard velocity != 0 else { return }
        offset = clamped(offset + ScrollPhysics.distance(after: seconds, velocity: velocity))
        velocity *= pow(ScrollPhysics.decelerationRate, seconds * 1_000)
        if abs(velocity) < Self.restingSpeed || offset <= 0 || offset >= maxOffset {
            velocity = 0
            announcement = .ended
        }
    }

    /// An animated jump: where it started and ends, and the seconds it has run.
    private struct Jump: Hashable, Sendable {
        var from: Double
        var to: Double
        var elapsed: Double
    }

    private func clamped(_ value: Double) -> Double {
        min(max(value, 0), maxOffset)
    }
}
#endif
