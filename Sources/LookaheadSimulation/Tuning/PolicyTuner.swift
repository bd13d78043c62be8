/// Searches the adaptive policy's settings for the fewest blank cell-frames
/// within a waste budget: what `lookahead tune` recommends.
///
/// Pure: it knows nothing of how a setting is scored — the caller's
/// `evaluate` runs the simulator over the traces — so the search is tested
/// on made-up score surfaces and runs the same over any traces.
///
/// The search is coordinate descent over ``axes``: from a start, try every
/// value of one knob with the others fixed, keep the best, go on to the next
/// knob, and repeat until a whole round changes nothing (at most
/// ``maxRounds``). A setting is better than another when it is within the
/// waste budget and the other is not, or both are and it leaves fewer blank
/// cell-frames (then fewer wasted loads); when neither is within budget, the
/// one wasting less is better. Every setting is scored once (memoized).
public struct PolicyTuner: Sendable {
    /// How one setting did over the traces: sums over them.
    public struct Score: Hashable, Sendable, Codable {
        public var blankCellFrames: Int
        public var visibleCellFrames: Int
        public var completedLoads: Int
        public var wastedLoads: Int

        /// Nothing yet: the sum's start.
        public static let zero = Score(blankCellFrames: 0, visibleCellFrames: 0, completedLoads: 0, wastedLoads: 0)

        /// Completed loads never seen, per completed load (0 without loads).
        public var wasteRatio: Double {
            completedLoads == 0 ? 0 : Double(wastedLoads) / Double(completedLoads)
        }

        /// The sum of two scores (over two traces).
        public static func + (lhs: Score, rhs: Score) -> Score {
            Score(
                blankCellFrames: lhs.blankCellFrames + rhs.blankCellFrames,
                visibleCellFrames: lhs.visibleCellFrames + rhs.visibleCellFrames,
                completedLoads: lhs.completedLoads + rhs.completedLoads, wastedLoads: lhs.wastedLoads + rhs.wastedLoads)
        }
    }

    /// One setting and its score.
    public struct Candidate: Hashable, Sendable, Codable {
        public var settings: AdaptiveSettings
        public var score: Score
    }

    /// What a search found.
    public struct Search: Sendable {
        /// Every setting scored, in the order scored.
        public var evaluated: [Candidate]
        /// The best one (see ``PolicyTuner``).
        public var best: Candidate
        /// The settings no other scored setting beats on both blank cell-frames
        /// and waste ratio, fewest blank first: the trade-off to choose from.
        public var paretoFront: [Candidate]
    }

    /// One knob and the values the search tries.
    public struct Axis: Sendable {
        /// What the knob is called in reports.
        public var name: String
        /// The settings with this knob at each of its values, the others as given.
        public var variants: @Sendable (AdaptiveSettings) -> [AdaptiveSettings]

        /// An axis of any variants.
        public init(name: String, variants: @escaping @Sendable (AdaptiveSettings) -> [AdaptiveSettings]) {
            self.name = name
            self.variants = variants
        }

        /// The axis that sets one setting to each of `values`.
        public init<Value: Sendable>(
            name: String, _ setting: any WritableKeyPath<AdaptiveSettings, Value> & Sendable, values: [Value]
        ) {
            self.init(name: name) { base in
                values.map { value in
                    var settings = base
                    settings[keyPath: setting] = value
                    return settings
                }
            }
        }
    }

    /// The knobs searched and their values.
    public static let axes: [Axis] = [
        Axis(name: "margin", \.marginMilliseconds, values: [0, 150, 300, 600]),
        Axis(name: "resting leading screens", \.restingLeadingScreens, values: [0.5, 1, 1.5, 2.5]),
        Axis(name: "resting trailing screens", \.restingTrailingScreens, values: [0.25, 0.75, 1.5]),
        Axis(name: "resting floor (the reader's pace)", \.restingFloorScreens, values: [nil, 1.5, 1]),
        Axis(name: "reach", \.maxReachScreens, values: [3, 6, 10]),
        Axis(name: "yields to the landing zone", \.yieldsToLandingZone, values: [true, false]),
        Axis(name: "concurrency", \.maxConcurrentLoads, values: [4, 6, 8]),
        Axis(name: "hedging", \.hedgesSlowLoads, values: [false, true]),
        Axis(name: "learned reach") { base in
            guard base.gestureReach != nil else { return [base] }
            var off = base
            off.gestureReach = nil
            return [base, off]
        },
        Axis(name: "learned reach's share", \.reachProbability, values: [0.2, 0.3, 0.45]),
    ]

    /// The largest waste ratio a recommendation may have.
    public var maxWasteRatio: Double
    /// The most rounds over the axes.
    public var maxRounds: Int

    /// Creates a tuner.
    ///
    /// - Parameters:
    ///   - maxWasteRatio: the waste budget, completed loads never seen per completed load (0...1).
    ///   - maxRounds: the most rounds over the axes (at least 1).
    public init(maxWasteRatio: Double, maxRounds: Int = 3) {
        precondition(maxWasteRatio.isFinite && maxWasteRatio >= 0, "PolicyTuner: waste budget \(maxWasteRatio)")
        precondition(maxRounds >= 1, "PolicyTuner: at least one round")
        self.maxWasteRatio = maxWasteRatio
        self.maxRounds = maxRounds
    }

    /// Whether `a` is a better recommendation than `b`.
    public func isBetter(_ a: Score, than b: Score) -> Bool {
        let aFits = a.wasteRatio <= maxWasteRatio
        let bFits = b.wasteRatio <= maxWasteRatio
        if aFits != bFits { return aFits }
        if !aFits { return (a.wasteRatio, a.blankCellFrames) < (b.wasteRatio, b.blankCellFrames) }
        return (a.blankCellFrames, a.wastedLoads) < (b.blankCellFrames, b.wastedLoads)
    }

    /// Coordinate descent from `start`.
    ///
    /// - Parameters:
    ///   - evaluate: scores one setting (runs the simulator over the traces).
    ///   - progress: called after each new setting is scored, with how many
    ///     have been and the most there can be.
    /// - Complexity: at most `maxRounds × Σ values` evaluations.
    public func search(
        from start: AdaptiveSettings, evaluate: (AdaptiveSettings) -> Score,
        progress: (_ scored: Int, _ atMost: Int) -> Void = { _, _ in }
    ) -> Search {
        search(from: [start], evaluate: evaluate, progress: progress)
    }

    /// Coordinate descent from each of `starts` (settings scored once across
    /// all of them), keeping the best result.
    ///
    /// - Precondition: at least one start.
    public func search(
        from starts: [AdaptiveSettings], evaluate: (AdaptiveSettings) -> Score,
        progress: (_ scored: Int, _ atMost: Int) -> Void = { _, _ in }
    ) -> Search {
        precondition(!starts.isEmpty, "PolicyTuner.search: at least one start")
        let atMost = starts.count * (1 + maxRounds * Self.axes.reduce(0) { $0 + $1.variants(starts[0]).count - 1 })
        var scores: [AdaptiveSettings: Score] = [:]
        var evaluated: [Candidate] = []
        func score(_ settings: AdaptiveSettings) -> Score {
            if let known = scores[settings] { return known }
            let new = evaluate(settings)
            scores[settings] = new
            evaluated.append(Candidate(settings: settings, score: new))
            progress(evaluated.count, atMost)
            return new
        }
        var best: Candidate?
        for start in starts {
            var current = Candidate(settings: start, score: score(start))
            for _ in 0..<maxRounds {
                let before = current.settings
                for axis in Self.axes {
                    for variant in axis.variants(current.settings) where variant != current.settings {
                        let candidate = score(variant)
                        if isBetter(candidate, than: current.score) {
                            current = Candidate(settings: variant, score: candidate)
                        }
                    }
                }
                if current.settings == before { break }
            }
            if best.map({ isBetter(current.score, than: $0.score) }) ?? true { best = current }
        }
        let found = best!
        return Search(evaluated: evaluated, best: found, paretoFront: Self.paretoFront(of: evaluated))
    }

    /// Every combination of the axes' values from `start`: the reference the
    /// search is measured against (slow: the product of the axes' sizes).
    public func exhaustive(
        from start: AdaptiveSettings, evaluate: (AdaptiveSettings) -> Score,
        progress: (_ scored: Int, _ atMost: Int) -> Void = { _, _ in }
    ) -> Search {
        var settings = [start]
        for axis in Self.axes { settings = settings.flatMap { axis.variants($0) } }
        var evaluated: [Candidate] = []
        for (index, setting) in settings.enumerated() {
            evaluated.append(Candidate(settings: setting, score: evaluate(setting)))
            progress(index + 1, settings.count)
        }
        var best = evaluated[0]
        for candidate in evaluated.dropFirst() where isBetter(candidate.score, than: best.score) { best = candidate }
        return Search(evaluated: evaluated, best: best, paretoFront: Self.paretoFront(of: evaluated))
    }

    /// The candidates no other beats on both blank cell-frames and waste
    /// ratio (ties kept once), fewest blank first.
    ///
    /// - Complexity: O(n log n).
    public static func paretoFront(of candidates: [Candidate]) -> [Candidate] {
        let sorted = candidates.sorted {
            ($0.score.blankCellFrames, $0.score.wasteRatio) < ($1.score.blankCellFrames, $1.score.wasteRatio)
        }
        var front: [Candidate] = []
        for candidate in sorted {
            if let last = front.last, candidate.score.wasteRatio >= last.score.wasteRatio { continue }
            front.append(candidate)
        }
        return front
    }
}

extension PolicyTuner.Score {
    /// The score of a strategy's result.
    ///
    /// In an extension, so that the struct keeps its memberwise initializer.
    public init(_ result: StrategyResult) {
        self.init(
            blankCellFrames: result.blankCellFrames, visibleCellFrames: result.visibleCellFrames,
            completedLoads: result.completedLoads, wastedLoads: result.wastedLoads)
    }
}
