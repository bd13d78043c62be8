import Lookahead

/// What the HTML report's animated replay draws for one scenario: the frames,
/// where the items the trace shows are, when each one is on screen, and from
/// which frame each strategy had its data.
///
/// Visibility comes from ``ScenarioVisibility`` — the frame loop the
/// simulator counts blank cell-frames with — so a page that counts, frame by
/// frame, the visible items a strategy did not have yet ends on exactly the
/// strategy's `blankCellFrames`. The report's browser check relies on it.
public struct ReplayTimeline: Sendable, Codable, Hashable {
    /// One strategy's side of the replay.
    public struct Strand: Sendable, Codable, Hashable {
        /// The strategy's name, as in the results.
        public var name: String
        /// For each of ``ReplayTimeline/items``, the first frame at which its
        /// data was there, or -1 if it never was during the run.
        public var readyFrames: [Int]
        /// The strategy's blank cell-frames, as the simulator counted them.
        public var blankCellFrames: Int
    }

    /// The scenario's name.
    public var scenario: String
    /// Milliseconds between frames.
    public var frameMilliseconds: Double
    /// The viewport, `[width, height]` in points.
    public var viewport: [Double]
    /// The content offset of each frame.
    public var offsets: [Double]
    /// The frames of the items the trace shows, `[x, y, width, height]`, by first appearance.
    public var items: [[Double]]
    /// For each item, the frames it is on screen, as `[first, last]` runs of consecutive frames.
    public var visibleRuns: [[[Int]]]
    /// The strategies, in the order of the results.
    public var strands: [Strand]
    /// In a carousel feed, for each item, the index in ``rowOffsets`` of its
    /// row if the trace swipes that row, else -1; `nil` elsewhere.
    public var itemRows: [Int]?
    /// In a carousel feed, for each swiped row, its horizontal offset as
    /// `[frame, offset]` pairs at the frames where it changes (ascending,
    /// from 0 at frame 0); the page shifts the row's items by it. `nil` elsewhere.
    public var rowOffsets: [[[Double]]]?

    /// The timeline of `scenario`, with each strategy's ready times.
    ///
    /// - Parameters:
    ///   - scenario: the scenario the strategies ran.
    ///   - strategies: each strategy's name, the time each item's data landed
    ///     (items never loaded are absent), and its blank cell-frames.
    /// - Complexity: O(F · (log n + k) + s · m) for F frames, k visible per
    ///   frame, s strategies and m items shown.
    public init(
        scenario: SimulationScenario,
        strategies: [(name: String, readyTimes: [Int: Duration], blankCellFrames: Int)]
    ) {
        let visibility = ScenarioVisibility(scenario: scenario)
        let frames = FrameVisibility(scenario: scenario)
        let layout = frames.layout
        let shown = visibility.itemsByFirstAppearance
        self.scenario = scenario.name
        frameMilliseconds = (visibility.frameDuration / .milliseconds(1))
        viewport = [scenario.viewport.width, scenario.viewport.height]
        offsets = (0..<visibility.frameCount).map { frame in
            frames.frame(at: visibility.time(ofFrame: frame)).rect.origin.y
        }
        items = shown.map { item in
            let frame = layout.frame(at: layout.itemPath(atFlatIndex: item))
            return [frame.origin.x, frame.origin.y, frame.size.width, frame.size.height]
        }
        if frames.feed != nil {
            let swiped = scenario.trace.scrolledRows
            let index = Dictionary(uniqueKeysWithValues: swiped.enumerated().map { ($1, $0) })
            itemRows = shown.map { index[layout.itemPath(atFlatIndex: $0).section] ?? -1 }
            rowOffsets = swiped.map { row in
                Self.changes(
                    of: (0..<visibility.frameCount).map {
                        frames.rowOffset(ofRow: row, at: visibility.time(ofFrame: $0))
                    })
            }
        }
        visibleRuns = shown.map { Self.runs(of: visibility.frames[$0] ?? []) }
        strands = strategies.map { strategy in
            let readyFrames = shown.map { item -> Int in
                guard let time = strategy.readyTimes[item] else { return -1 }
                // Data that lands at a frame's time is there for that frame: the simulator
                // handles completions up to a frame's time before showing it.
                let estimate = Int((time / visibility.frameDuration).rounded(.up))
                let frame = Self.firstFrame(atOrAfter: time, from: estimate, visibility)
                return frame < visibility.frameCount ? frame : -1
            }
            return Strand(name: strategy.name, readyFrames: readyFrames, blankCellFrames: strategy.blankCellFrames)
        }
    }

    /// The first frame whose time is at or after `time`, starting the search
    /// at `estimate` (the division's rounding can be one off either way).
    static func firstFrame(atOrAfter time: Duration, from estimate: Int, _ visibility: ScenarioVisibility) -> Int {
        var frame = max(0, estimate)
        while frame > 0, visibility.time(ofFrame: frame - 1) >= time { frame -= 1 }
        while visibility.time(ofFrame: frame) < time { frame += 1 }
        return frame
    }

    /// A per-frame series as `[frame, value]` pairs where it changes, from `[0, 0]`.
    static func changes(of values: [Double]) -> [[Double]] {
        var changes: [[Double]] = [[0, 0]]
        for (frame, value) in values.enumerated() where value != changes[changes.count - 1][1] {
            changes.append([Double(frame), value])
        }
        return changes
    }

    /// Ascending frames as runs of consecutive frames, `[first, last]` each.
    static func runs(of frames: [Int]) -> [[Int]] {
        var runs: [[Int]] = []
        for frame in frames {
            if let last = runs.last, last[1] + 1 == frame {
                runs[runs.count - 1][1] = frame
            } else {
                runs.append([frame, frame])
            }
        }
        return runs
    }
}
