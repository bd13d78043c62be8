// Which scroll frames a coordinator plans. Most frames of a slow scroll
// change no decision, and planning every one cost most of a frame's budget
// on the main thread (docs/decisions.md, "Plan on a cadence").

/// Which frames are planned: the first, one after ``reset()``, one whose
/// viewport changed size or whose announced target changed, and one that
/// moved ``distance`` of a screen, changed speed by that much per
/// ``interval``, or came ``interval`` after the last frame planned; the
/// others are tracked only. The coordinators and the simulator's drivers all
/// ask it, so that the simulator plans the frames an app plans.
package struct PlanningCadence: Sendable {
    /// A frame this long after the last planned one is planned, however little it moved.
    package var interval: Duration = .milliseconds(50)
    /// The share of the viewport's height a frame must move from the last
    /// planned one to be planned sooner than ``interval``.
    package var distance = 0.05
    /// The last frame planned; `nil` before the first and after a reset.
    package private(set) var lastPlanned: ScrollFrame?

    package init() {}

    /// Every frame planned: how UIKit's prefetching and the other libraries
    /// the simulator compares follow a scroll.
    package static var everyFrame: PlanningCadence {
        var cadence = PlanningCadence()
        cadence.interval = .zero
        return cadence
    }

    /// Whether `frame` is to be planned.
    package func isDue(_ frame: ScrollFrame) -> Bool {
        guard let last = lastPlanned, frame.time >= last.time, frame.visibleRect.size == last.visibleRect.size,
            frame.targetOffset == last.targetOffset
        else { return true }
        let moved = max(
            abs(frame.visibleRect.minY - last.visibleRect.minY), abs(frame.visibleRect.minX - last.visibleRect.minX))
        // A change of speed that would carry the window that far within the interval.
        let reach = distance * frame.visibleRect.height
        return frame.time - last.time >= interval || moved >= reach
            || abs(frame.velocity - last.velocity) * (interval / .seconds(1)) >= reach
    }

    /// `frame` was planned: the next frames are measured from it.
    package mutating func planned(_ frame: ScrollFrame) {
        lastPlanned = frame
    }

    /// The next frame is planned, whatever it is.
    package mutating func reset() {
        lastPlanned = nil
    }
}
