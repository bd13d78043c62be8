/// Where the next gesture from a resting list goes, learned from scroll
/// traces: for each distance ahead (in the last direction of travel) and
/// behind, the share of rests after which the viewport came that close to
/// it, within ``horizon``.
///
/// At rest, the next gesture is uncertain, not unknown: a reader who just
/// flicked will likely flick again, some screens on; one who reads drags a
/// screen at a time. ``AdaptivePrefetchPolicy`` uses the model, when given
/// one, to size its resting window (every item likely enough to be seen,
/// ``AdaptivePrefetchPolicy/reachProbability``) and to order it (the most
/// likely first, whichever side), instead of fixed screens and weights.
///
/// A table per band of the last gesture's peak speed: a reader's drag
/// reaches the next screen, a hard fling's rest is often followed by another.
/// ``fit(_:screen:horizon:speedBounds:every:restingSpeed:)`` fits them from a
/// trace of offsets; `lookahead tune` fits an app's own
/// from its recorded traces; ``shipped`` was fitted on the built-in
/// scenarios' generated traces (docs/simulator.md, "The learned reach").
public struct GestureReach: Sendable, Hashable, Codable {
    /// The distances the tables are kept at: `0, step, 2·step, …`, in screens.
    public static let stepScreens = 0.5
    /// How many distances each table holds (up to 12 screens).
    public static let steps = 25

    /// One kind of rest: the share of rests that came within `i · stepScreens`
    /// screens of an item ahead (`ahead[i]`) or behind (`behind[i]`).
    public struct Table: Sendable, Hashable, Codable {
        /// Ahead, in the last direction of travel: non-increasing, in [0, 1].
        public var ahead: [Double]
        /// Behind: non-increasing, in [0, 1].
        public var behind: [Double]
        /// How many rests the shares were counted over.
        public var rests: Int

        /// A table; `ahead` and `behind` are padded or cut to ``GestureReach/steps``.
        public init(ahead: [Double], behind: [Double], rests: Int) {
            self.ahead = Self.normalized(ahead)
            self.behind = Self.normalized(behind)
            self.rests = max(0, rests)
        }

        /// `shares` cut or padded with its last value to `steps`, clamped to
        /// [0, 1] and made non-increasing (a farther item is never likelier).
        static func normalized(_ shares: [Double]) -> [Double] {
            var result = Array(shares.prefix(GestureReach.steps))
            while result.count < GestureReach.steps { result.append(result.last ?? 0) }
            var ceiling = 1.0
            for index in result.indices {
                let share = result[index].isFinite ? min(max(result[index], 0), 1) : 0
                ceiling = min(ceiling, share)
                result[index] = ceiling
            }
            return result
        }

        /// The share at `screens` (interpolated between the table's steps).
        func share(atScreens screens: Double, ahead isAhead: Bool) -> Double {
            let shares = isAhead ? ahead : behind
            let position = max(0, screens) / GestureReach.stepScreens
            let lower = Int(position)
            guard lower + 1 < shares.count else { return shares[shares.count - 1] }
            let fraction = position - Double(lower)
            return shares[lower] + (shares[lower + 1] - shares[lower]) * fraction
        }

        /// The farthest distance, in screens, whose share is at least `share`.
        func screens(withShareAtLeast share: Double, ahead isAhead: Bool) -> Double {
            let shares = isAhead ? ahead : behind
            guard shares[0] >= share else { return 0 }
            for index in shares.indices.dropFirst() where shares[index] < share {
                // Between the last step at or above and this one.
                let above = shares[index - 1]
                let fraction = above > shares[index] ? (above - share) / (above - shares[index]) : 0
                return (Double(index - 1) + fraction) * GestureReach.stepScreens
            }
            return Double(shares.count - 1) * GestureReach.stepScreens
        }
    }

    /// How long after a rest the viewport's reach is counted.
    public var horizon: Duration
    /// The peak speeds, in points per second, that part the last gestures
    /// before a rest into the tables: ascending.
    public var speedBounds: [Double]
    /// One table per kind of rest: `tables[i]` for rests after a gesture
    /// whose peak speed was below `speedBounds[i]` (and at or above the
    /// bound before); the last for the fastest.
    public var tables: [Table]

    /// The speed bounds by default: a reader's drag, a brisk drag, a fling,
    /// a hard fling.
    public static let defaultSpeedBounds: [Double] = [600, 1_800, 4_000]

    /// A model from its tables, one more than `speedBounds`.
    public init(horizon: Duration, speedBounds: [Double] = defaultSpeedBounds, tables: [Table]) {
        precondition(horizon > .zero, "GestureReach: horizon must be positive")
        precondition(
            zip(speedBounds, speedBounds.dropFirst()).allSatisfy { $0 < $1 } && speedBounds.allSatisfy(\.isFinite),
            "GestureReach: speed bounds must be finite and ascending")
        precondition(tables.count == speedBounds.count + 1, "GestureReach: one table per speed band")
        self.horizon = horizon
        self.speedBounds = speedBounds
        self.tables = tables
    }

    /// The table of rests after a gesture that peaked at `peakSpeed`.
    public func table(afterGestureAt peakSpeed: Double) -> Table {
        tables[band(of: peakSpeed)]
    }

    /// The share of rests after a gesture that peaked at `peakSpeed` that
    /// came within `screens` of an item ahead (or behind).
    public func share(ofReaching screens: Double, ahead: Bool, afterGestureAt peakSpeed: Double) -> Double {
        table(afterGestureAt: peakSpeed).share(atScreens: screens, ahead: ahead)
    }

    /// The farthest distance, in screens, ahead (or behind) that at least
    /// `share` of rests after a gesture that peaked at `peakSpeed` came within.
    public func screens(reachedBy share: Double, ahead: Bool, afterGestureAt peakSpeed: Double) -> Double {
        table(afterGestureAt: peakSpeed).screens(withShareAtLeast: share, ahead: ahead)
    }
}

extension GestureReach {
    /// Fits a model from one trace of vertical offsets, in time order, on a
    /// screen `screen` points tall: a rest is sampled every `every` (250 ms)
    /// while the list is below `restingSpeed`, and what the viewport reached
    /// within `horizon` after it is counted on each side, in the table of the
    /// last gesture's peak speed.
    ///
    /// Rests, directions and speeds are told as ``AdaptivePrefetchPolicy``
    /// tells them: the library's velocity estimate, the last direction of
    /// travel, the peak speed since the list last rested.
    ///
    /// - Complexity: O(n · frames within `horizon`).
    public static func fit(
        _ samples: [(time: Duration, offset: Double)], screen: Double, horizon: Duration = defaultHorizon,
        speedBounds: [Double] = defaultSpeedBounds, every: Duration = .milliseconds(250), restingSpeed: Double = 40
    ) -> GestureReach {
        fit(
            traces: [(samples, screen)], horizon: horizon, speedBounds: speedBounds, every: every,
            restingSpeed: restingSpeed)
    }

    /// Fits one model from several traces, each on its own screen height.
    public static func fit(
        traces: [(samples: [(time: Duration, offset: Double)], screen: Double)], horizon: Duration = defaultHorizon,
        speedBounds: [Double] = defaultSpeedBounds, every: Duration = .milliseconds(250), restingSpeed: Double = 40
    ) -> GestureReach {
        var counts = Counts(bands: speedBounds.count + 1)
        for trace in traces {
            counts.add(
                trace.samples, screen: trace.screen, horizon: horizon, speedBounds: speedBounds, every: every,
                restingSpeed: restingSpeed)
        }
        return counts.model(horizon: horizon, speedBounds: speedBounds)
    }

    /// Fits a model from what `recorder` holds, on the screen it describes:
    /// an app's own, learned on the device. `nil` until the recorder is told
    /// its viewport (``ScrollTraceRecorder/describe(viewport:itemCount:itemSize:)``).
    public static func fit(_ recorder: ScrollTraceRecorder, horizon: Duration = defaultHorizon) -> GestureReach? {
        guard let viewport = recorder.viewport, viewport.height > 0 else { return nil }
        return fit(recorder.samples.map { ($0.time, $0.offset) }, screen: viewport.height, horizon: horizon)
    }

    /// How long after a rest the reach is counted by default: long enough
    /// for the gesture after the rest to have gone where it goes.
    public static let defaultHorizon = Duration.seconds(4)

    /// The band of a peak speed: the index of its table.
    func band(of peakSpeed: Double) -> Int {
        Self.band(of: peakSpeed, bounds: speedBounds)
    }

    static func band(of peakSpeed: Double, bounds: [Double]) -> Int {
        bounds.firstIndex { abs(peakSpeed) < $0 } ?? bounds.count
    }

    /// Rests counted by how far they reached, per band.
    struct Counts {
        /// `[band][side][step]`: side 0 ahead, 1 behind.
        var reached: [[[Int]]]
        var rests: [Int]

        init(bands: Int) {
            reached = Array(
                repeating: Array(repeating: Array(repeating: 0, count: GestureReach.steps), count: 2), count: bands)
            rests = Array(repeating: 0, count: bands)
        }

        mutating func add(
            _ samples: [(time: Duration, offset: Double)], screen: Double, horizon: Duration, speedBounds: [Double],
            every: Duration, restingSpeed: Double
        ) {
            guard screen > 0, samples.count > 1 else { return }
            var velocity = VelocityEstimator()
            var direction = 1.0
            var gesture = GesturePeak()
            var nextSample = samples[0].time
            var end = 0
            for (index, sample) in samples.enumerated() {
                velocity.record(position: sample.offset, at: sample.time)
                let speed = abs(velocity.velocity)
                gesture.record(speed: speed, restingSpeed: restingSpeed)
                if speed >= restingSpeed { direction = velocity.velocity >= 0 ? 1 : -1 }
                guard speed < restingSpeed, sample.time >= nextSample else { continue }
                nextSample = sample.time + every
                // The trace must run a whole horizon past the rest for it to count.
                let until = sample.time + horizon
                guard let last = samples.last, last.time >= until else { break }
                end = max(end, index)
                var ahead = 0.0
                var behind = 0.0
                while end + 1 < samples.count, samples[end + 1].time <= until { end += 1 }
                for later in samples[(index + 1)...end] {
                    let moved = (later.offset - sample.offset) * direction
                    ahead = max(ahead, moved)
                    behind = max(behind, -moved)
                }
                let band = GestureReach.band(of: gesture.lastPeak, bounds: speedBounds)
                rests[band] += 1
                for (side, distance) in [ahead, behind].enumerated() {
                    // An item `i` steps away is seen once the viewport moves past that distance.
                    let steps = distance / screen / GestureReach.stepScreens
                    for step in 0..<GestureReach.steps where Double(step) < steps {
                        reached[band][side][step] += 1
                    }
                }
            }
        }

        func model(horizon: Duration, speedBounds: [Double]) -> GestureReach {
            let tables = rests.indices.map { band -> Table in
                let count = rests[band]
                let shares = reached[band].map { side in side.map { count > 0 ? Double($0) / Double(count) : 0 } }
                return Table(ahead: shares[0], behind: shares[1], rests: count)
            }
            return GestureReach(horizon: horizon, speedBounds: speedBounds, tables: tables)
        }
    }
}

/// The peak speed of the gesture in progress, and of the last one once the
/// list rests: the one rule the policy and the fitting share.
package struct GesturePeak: Sendable, Hashable {
    /// The fastest speed since the list last rested.
    package private(set) var currentPeak = 0.0
    /// The peak of the last gesture that came to rest.
    package private(set) var lastPeak = 0.0

    package init() {}

    /// Records a frame's speed (points per second, not negative).
    package mutating func record(speed: Double, restingSpeed: Double) {
        if speed >= restingSpeed {
            currentPeak = max(currentPeak, speed)
        } else if currentPeak > 0 {
            lastPeak = currentPeak
            currentPeak = 0
        }
    }
}

extension GestureReach {
    /// The model ``AdaptivePrefetchPolicy`` uses by default: fitted on the
    /// simulator's generated traces of five scrolling styles (a feed read,
    /// a photo grid skimmed, flings, jumps, a slow network's reader), seeds
    /// 1–5, by `GestureReach.fittedOnBuiltIns`, whose test keeps the two equal.
    public static let shipped = GestureReach(
        horizon: .milliseconds(4000),
        speedBounds: [600, 1800, 4000],
        tables: [
            GestureReach.Table(
                ahead: [
                    0.4181, 0.1053, 0.0468, 0.0342, 0.0277, 0.0206, 0.0167, 0.0158, 0.015, 0.0146, 0.0136, 0.0114,
                    0.0104, 0.009, 0.0083, 0.0083, 0.0075, 0.0073, 0.0068, 0.0066, 0.0063, 0.0061, 0.0027, 0.0027,
                    0.0027,
                ],
                behind: [
                    0.1039, 0.0352, 0.0308, 0.0289, 0.0281, 0.0277, 0.0238, 0.0218, 0.0214, 0.0214, 0.0206, 0.0204,
                    0.0201, 0.0165, 0.0165, 0.0148, 0.0146, 0.0146, 0.0114, 0.0107, 0.008, 0.008, 0.0049, 0.0049,
                    0.0049,
                ],
                rests: 4121),
            GestureReach.Table(
                ahead: [
                    0.788, 0.4209, 0.3259, 0.2563, 0.2025, 0.1614, 0.1392, 0.1234, 0.1076, 0.0949, 0.0823, 0.0538,
                    0.0538, 0.0475, 0.0348, 0.0253, 0.0222, 0.019, 0.0127, 0.0095, 0.0032, 0, 0, 0, 0,
                ],
                behind: [
                    0.1361, 0.1234, 0.1171, 0.1139, 0.1076, 0.0981, 0.0918, 0.0823, 0.0696, 0.0601, 0.0316, 0.0222,
                    0.0158, 0.0127, 0.0063, 0.0063, 0.0063, 0.0063, 0.0063, 0.0063, 0.0032, 0.0032, 0, 0, 0,
                ],
                rests: 316),
            GestureReach.Table(
                ahead: [
                    0.8008, 0.5339, 0.3904, 0.3028, 0.259, 0.2151, 0.1912, 0.1235, 0.0876, 0.0797, 0.0518, 0.0239,
                    0.0159, 0.012, 0.008, 0.004, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                ],
                behind: [
                    0.259, 0.243, 0.1952, 0.1793, 0.1673, 0.1514, 0.1116, 0.1036, 0.0837, 0.0199, 0.0159, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0,
                ],
                rests: 251),
            GestureReach.Table(
                ahead: [
                    0.6577, 0.5037, 0.4279, 0.4083, 0.3985, 0.3252, 0.2836, 0.2738, 0.2641, 0.2176, 0.176, 0.1345,
                    0.1051, 0.0685, 0.0611, 0.0562, 0.0513, 0.044, 0.0391, 0.0293, 0.0196, 0.0098, 0.0024, 0, 0,
                ],
                behind: [
                    0.4425, 0.4401, 0.4083, 0.3839, 0.379, 0.3765, 0.3741, 0.3521, 0.3325, 0.313, 0.2885, 0.2543,
                    0.2152, 0.1907, 0.1687, 0.154, 0.154, 0.1418, 0.1198, 0.1076, 0.1051, 0.1051, 0.0978, 0.0978,
                    0.0685,
                ],
                rests: 409),
        ])
}
