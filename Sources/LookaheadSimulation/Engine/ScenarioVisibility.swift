import Lookahead

/// Which items a scenario's trace shows in which frames: the one frame loop
/// that the oracle's plans and the lower bound read the future from.
///
/// It walks the frames exactly as ``Simulator`` shows them (the same frame
/// times and the same ``FrameVisibility``, carousels' horizontal offsets
/// included), so "visible in frame f" means the same thing here as in the
/// blank cell-frame count.
struct ScenarioVisibility {
    /// The time between frames.
    let frameDuration: Duration
    /// The frames of the run: `0..<frameCount`, frame f at `frameDuration * f`.
    let frameCount: Int
    /// Every item shown at least once, by first appearance (ties by item).
    let itemsByFirstAppearance: [Int]
    /// For each item shown, its visible frames in ascending order.
    let frames: [Int: [Int]]
    /// Visible cell-frames in all: the sum of the frame lists' lengths.
    let visibleCellFrames: Int

    /// Walks the scenario's frames.
    ///
    /// - Complexity: O(F · (log n + k)) for F frames over n items, k visible per frame.
    init(scenario: SimulationScenario) {
        let visibility = FrameVisibility(scenario: scenario)
        frameDuration = .seconds(1) / scenario.frameRate
        frameCount = Int((scenario.trace.duration / frameDuration).rounded(.down)) + 1
        var frames: [Int: [Int]] = [:]
        var order: [Int] = []
        var visible = 0
        for frame in 0..<frameCount {
            for item in visibility.frame(at: frameDuration * frame).items {
                if frames[item] == nil { order.append(item) }
                frames[item, default: []].append(frame)
                visible += 1
            }
        }
        // Items first seen in the same frame keep the item order, as the oracle's ties do.
        var firstFrame: [Int: Int] = [:]
        for (item, list) in frames { firstFrame[item] = list[0] }
        itemsByFirstAppearance = order.sorted { (firstFrame[$0]!, $0) < (firstFrame[$1]!, $1) }
        self.frames = frames
        visibleCellFrames = visible
    }

    /// The time of frame `frame`.
    func time(ofFrame frame: Int) -> Duration { frameDuration * frame }
}
