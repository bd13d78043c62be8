import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// The UIKit bracket: `system` under each window UIKit's prefetching might
/// have, against `adaptive`.
@Suite(.queuedOnTheHeavyTestThread)
struct UIKitBracketTests {
    @Test func aOneItemWindowAsksForTheNextItemOnly() {
        // Given a 3-column grid showing its first rows, scrolling down
        let layout = UniformGridLayout(width: 390, columns: 3, itemCount: 300, spacing: 0, aspectRatio: 1)
        var planner = PrefetchPlanner(layout: layout, policy: UIKitWindow.oneItem.policy)
        _ = planner.update(
            ScrollFrame(visibleRect: Rect(x: 0, y: 0, width: 390, height: 500), velocity: 0, time: .zero))
        let update = planner.update(
            ScrollFrame(visibleRect: Rect(x: 0, y: 10, width: 390, height: 500), velocity: 600, time: .milliseconds(16))
        )

        // Then the window is the one item after the last visible one
        let lastVisible = planner.visibleItems.map { layout.flatIndex(of: $0) }.max()!
        #expect(Set(planner.prefetched) == [layout.itemPath(atFlatIndex: lastVisible + 1)])
        #expect(update.prefetch.count <= 1)
    }

    @Test func theRowsWindowIsTheSystemStrategyAndTheRangeSpansTheWindows() async {
        await onHeavyTestThread {
            // Given a short fling scenario
            let scenario = SimulationScenario.builtIn(named: "fling", seed: 3, duration: .seconds(8))!

            // When the bracket runs
            let bracket = UIKitBracket(scenario: scenario)!

            // Then its `rows` window is `system` as the simulator reports it, every window ran, and the
            // advantage spans the windows' ratios to adaptive
            let system = Simulator(scenario: scenario).run(.system)
            #expect(bracket.rows.map(\.window) == UIKitWindow.allCases)
            #expect(bracket.rows.first { $0.window == .rows }?.blankCellFrames == system.blankCellFrames)
            let ratios = bracket.rows.map { Double($0.blankCellFrames) / Double(bracket.adaptiveBlankCellFrames) }
            #expect(bracket.advantage == ratios.min()!...ratios.max()!)
            #expect(Set(bracket.rows.map(\.blankCellFrames)).count > 1, "the windows differ")
            // and rows appearing at visibility are `swiftui` itself
            #expect(bracket.swiftUI.map(\.screens) == UIKitBracket.swiftUIAppearingScreens)
            #expect(bracket.swiftUI[0].blankCellFrames == Simulator(scenario: scenario).run(.swiftui).blankCellFrames)
        }
    }

    @Test func aFeedOfCarouselsHasNoBracket() {
        #expect(
            UIKitBracket(scenario: SimulationScenario.builtIn(named: "carousels", seed: 1, duration: .seconds(2))!)
                == nil)
    }
}
