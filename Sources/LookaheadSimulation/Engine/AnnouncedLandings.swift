import Foundation
import Lookahead

// What an app knows of where a motion comes to rest, found in a generated
// trace: the simulator's stand-in for UIKit's `targetContentOffset`.

/// Where a trace's motion comes to rest, over the frames on which an app
/// would know it: a fling's landing at its release (UIKit's
/// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`), and an
/// animated scroll's target (a jump to the top, or back) on every frame of
/// its animation (the app asked for it).
///
/// Found from the samples' own shape, so only generated traces yield any: a
/// fling's frames shrink by UIScrollView's deceleration (0.998 per ms)
/// exactly, a jump eases in and out over ``jumpDuration`` exactly; a
/// recorded trace's noise matches neither, and the policy infers the
/// landing from the first coasting frames as before.
package struct AnnouncedLandings: Sendable {
    /// One announcement: from `start` until before `end`, the motion rests at `offset`.
    package struct Landing: Hashable, Sendable {
        /// How the app knows where the motion rests: a drag ended in a fling
        /// (`scrollViewWillEndDragging`), or it started an animated scroll
        /// (`setContentOffset(_:animated:)`).
        package enum Kind: Hashable, Sendable { case fling, animatedScroll }

        package var start, end: Duration
        package var offset: Double
        package var kind: Kind
    }

    /// How long the generator's animated scrolls last: UIKit's scroll-to-top.
    static let jumpDuration = 0.3

    /// The announcements, ascending and disjoint.
    package let landings: [Landing]
    /// Where the last lookup ended: frames are shown in time order.
    private var cursor = 0

    /// Finds the landings in `trace`, whose offsets stay within `0...maxOffset`.
    ///
    /// - Complexity: O(samples).
    package init(trace: ScrollTrace, maxOffset: Double) {
        let samples = trace.samples
        var landings: [Landing] = []
        guard samples.count > 3 else {
            self.landings = []
            return
        }
        let step = samples[1].time - samples[0].time
        let milliseconds = step / .milliseconds(1)
        let ratio = pow(0.998, milliseconds)
        let jumpFrames = max(2, Int((Self.jumpDuration / (milliseconds / 1_000)).rounded()))
        let offsets = samples.map(\.offset)
        func isUniform(_ range: Range<Int>) -> Bool {
            range.allSatisfy { samples[$0 + 1].time - samples[$0].time == step }
        }
        /// The jump that starts after sample `index`, if one does.
        func jump(from index: Int) -> Landing? {
            guard let target = Self.jumpTarget(offsets, from: index, frames: jumpFrames),
                index + jumpFrames < samples.count, isUniform(index..<index + jumpFrames)
            else { return nil }
            return Landing(
                start: samples[index + 1].time, end: samples[index + jumpFrames].time, offset: target,
                kind: .animatedScroll)
        }
        var index = 0
        while index + 3 < samples.count {
            if let jump = jump(from: index) {
                landings.append(jump)
                index += jumpFrames
                continue
            }
            if let target = Self.flingTarget(offsets, releasedAt: index, ratio: ratio), isUniform(index..<index + 3) {
                // Announced from the release while the frames shown still coast.
                var last = index + 1
                while last + 1 < samples.count, samples[last + 1].time - samples[last].time == step,
                    Self.follows(offsets[last + 1] - offsets[last], offsets[last] - offsets[last - 1], ratio: ratio)
                {
                    last += 1
                }
                let landing = min(max(0, target), maxOffset)
                landings.append(
                    Landing(start: samples[index].time, end: samples[last].time + step, offset: landing, kind: .fling))
                // An animated scroll may start where the fling came to rest,
                // its first sample the fling's last (the generator's jumps
                // start as soon as a gesture ends).
                if let jump = jump(from: last) {
                    landings.append(jump)
                    index = last + jumpFrames
                } else {
                    index = last + 1
                }
                continue
            }
            index += 1
        }
        self.landings = landings
    }

    /// Where a fling released after sample `index` rests, if the samples
    /// after it decelerate as UIScrollView does and the one before did not
    /// (a release, not a fling already coasting).
    static func flingTarget(_ offsets: [Double], releasedAt index: Int, ratio: Double) -> Double? {
        let first = offsets[index + 1] - offsets[index]
        let second = offsets[index + 2] - offsets[index + 1]
        let third = offsets[index + 3] - offsets[index + 2]
        func follows(_ next: Double, _ previous: Double) -> Bool { Self.follows(next, previous, ratio: ratio) }
        guard abs(first) > 1e-9, follows(second, first), follows(third, second) else { return nil }
        if index > 0, follows(first, offsets[index] - offsets[index - 1]) { return nil }
        return offsets[index] + first / (1 - ratio)
    }

    /// Whether a frame's move `next` is the one before, `previous`, slowed
    /// by UIScrollView's deceleration over a frame (`ratio`).
    static func follows(_ next: Double, _ previous: Double, ratio: Double) -> Bool {
        abs(next - previous * ratio) <= 1e-9 * max(1, abs(previous))
    }

    /// Where an animated scroll starting after sample `index` ends, if the
    /// samples ease in and out over `frames` as the generator's jumps do.
    static func jumpTarget(_ offsets: [Double], from index: Int, frames: Int) -> Double? {
        guard index + frames < offsets.count else { return nil }
        let from = offsets[index]
        let to = offsets[index + frames]
        let distance = to - from
        guard abs(distance) > 1 else { return nil }
        for step in [1, frames / 2, frames - 1] {
            let progress = 0.5 - 0.5 * cos(Double.pi * Double(step) / Double(frames))
            guard abs(offsets[index + step] - (from + distance * progress)) <= 1e-6 * abs(distance) else {
                return nil
            }
        }
        return to
    }

    /// The offset of the landing announced at `time`, if any; `time` never
    /// decreases from one call to the next.
    ///
    /// - Complexity: amortized O(1).
    mutating func offset(at time: Duration) -> Double? {
        landing(at: time)?.offset
    }

    /// The landing announced at `time`, if any; `time` never decreases
    /// from one call to the next.
    ///
    /// - Complexity: amortized O(1).
    package mutating func landing(at time: Duration) -> Landing? {
        while cursor < landings.count, landings[cursor].end <= time { cursor += 1 }
        guard cursor < landings.count, landings[cursor].start <= time else { return nil }
        return landings[cursor]
    }
}
