import Foundation
import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// The `carousels` scenario: visibility that follows each row's horizontal
/// offset, the same in the simulator's count and the oracle's future, and
/// the lower bound under every strategy.
@Suite(.queuedOnTheHeavyTestThread)
struct CarouselScenarioTests {
    let viewport = Size(width: 390, height: 844)

    /// The built-in carousels scenario of `seed`, 15 s long, with a swipe
    /// at most gesture ends (more than the default's, to test them).
    func swipingScenario(seed: UInt64) -> SimulationScenario {
        var subject = SimulationScenario.builtIn(named: "carousels", seed: seed, duration: .seconds(15))!
        subject.trace = CarouselTraceGenerator(
            seed: seed, style: .skimming, duration: .seconds(15), feed: subject.makeCarouselFeed()!.feed,
            viewportHeight: viewport.height, swipeProbability: 0.8
        ).makeTrace()
        return subject
    }

    func scenario(rows: [CarouselFeedLayout.Row], trace: ScrollTrace, seed: UInt64 = 7) -> SimulationScenario {
        SimulationScenario(
            name: "carousels-test", layout: .carousels(rows: rows), viewport: viewport, network: .feed(seed: seed),
            maxConcurrentLoads: 6, trace: trace)
    }

    @Test func anItemSwipedIntoViewIsVisibleExactlyWhenItCrossesTheCarouselsWidth() {
        // Given a carousel of 150 pt items 10 pt apart, under a plain cell, swiped from 0 to 1,000 pt in 2 s
        let rows: [CarouselFeedLayout.Row] = [
            .cell(height: 100), .carousel(height: 200, itemWidth: 150, itemCount: 30, spacing: 10),
            .carousel(height: 200, itemWidth: 100, itemCount: 30, spacing: 0),
        ]
        let frames = 120
        let samples = (0...frames).map { frame in
            ScrollTrace.Sample(
                time: .seconds(1) / 60 * frame, offset: 0, row: 1, rowOffset: 1_000 * Double(frame) / Double(frames)
            )
        }
        let subject = scenario(rows: rows, trace: ScrollTrace(samples: samples))
        let visibility = FrameVisibility(scenario: subject)
        let frameLoop = ScenarioVisibility(scenario: subject)
        let feed = subject.makeCarouselFeed()!

        for frame in 0...frames {
            let time = Duration.seconds(1) / 60 * frame
            let offset = 1_000 * Double(frame) / Double(frames)
            let shown = Set(visibility.frame(at: time).paths)
            // Then item 3 of row 1 (at 480...630 pt) is visible exactly while it crosses [offset, offset + 390):
            // not while only the spacing after it does, as a cell's frame excludes the spacing
            let extent = 480.0..<630.0
            let crosses = extent.lowerBound < offset + 390 && extent.upperBound > offset
            #expect(shown.contains(ItemPath(item: 3, section: 1)) == crosses, "frame \(frame), offset \(offset)")
            // And every row shows what the layout says at its own offset (row 2 never moved)
            for row in 0..<3 {
                let expected = feed.feed.items(inRow: row, atOffset: row == 1 ? offset : 0)
                let actual = shown.filter { $0.section == row }.map(\.item).sorted()
                #expect(actual == Array(expected), "frame \(frame), row \(row)")
            }
            // And the oracle's frame loop agrees item by item
            let item = feed.flatIndex(of: ItemPath(item: 3, section: 1))
            #expect(frameLoop.frames[item, default: []].contains(frame) == crosses, "frame \(frame)")
        }
    }

    @Test(arguments: [1, 3, 4] as [UInt64])
    func theSimulatorCountsTheVisibleCellFramesOfTheFrameLoop(seed: UInt64) async {
        await onHeavyTestThread {
            // Given a short built-in carousels run
            let subject = swipingScenario(seed: seed)
            let visibility = ScenarioVisibility(scenario: subject)
            #expect(!subject.trace.scrolledRows.isEmpty, "seed \(seed): no swipe")

            // When every strategy that runs on carousels runs
            let simulator = Simulator(scenario: subject)
            for strategy in SimulationStrategy.allCases where strategy.runs(on: subject.layout) && strategy != .oracle {
                let result = simulator.run(strategy)
                // Then each counts exactly the frame loop's visible cell-frames
                #expect(
                    result.visibleCellFrames == visibility.visibleCellFrames,
                    "seed \(seed), \(strategy.rawValue): \(result.visibleCellFrames) vs \(visibility.visibleCellFrames)"
                )
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func noStrategyGoesUnderTheLowerBoundAndAdaptiveBeatsSystem(seed: UInt64) async {
        await onHeavyTestThread {
            // Given a short built-in carousels run
            let subject = SimulationScenario.builtIn(named: "carousels", seed: seed, duration: .seconds(15))!
            // With hedges allowed, as the reports compute it: adaptive hedges
            let bound = LowerBound(scenario: subject, allowsHedging: true)

            // When every strategy that runs on carousels runs, the oracle included
            let simulator = Simulator(scenario: subject)
            var blanks: [String: Int] = [:]
            var waste: [String: Int] = [:]
            for strategy in SimulationStrategy.allCases where strategy.runs(on: subject.layout) {
                let result = simulator.run(strategy)
                blanks[strategy.rawValue] = result.blankCellFrames
                waste[strategy.rawValue] = result.wastedLoads
            }

            // Then none is under the bound
            for (name, blank) in blanks {
                #expect(blank >= bound.blankCellFrames, "seed \(seed), \(name): \(blank) < \(bound.blankCellFrames)")
            }
            #expect(blanks["none"]! > 0, "seed \(seed): nothing to measure")
            // And adaptive leaves fewer blanks than system (0.65–0.80× on these swipe-heavy 15 s runs,
            // 0.15–0.34× on the built-in minute), wasting no more than texture
            let (adaptive, system) = (blanks["adaptive"]!, blanks["system"]!)
            #expect(adaptive < system, "seed \(seed): adaptive \(adaptive), system \(system)")
            #expect(waste["adaptive"]! <= waste["texture"]!, "seed \(seed): waste \(waste)")
        }
    }

    @Test func pageStrategiesAndSwiftUISitOutCarousels() {
        let subject = SimulationScenario.builtIn(named: "carousels", seed: 1, duration: .seconds(1))!
        let run = SimulationSuite(seed: 1, scenarios: [subject], strategies: SimulationStrategy.allCases).run()
        let names = run.scenarios[0].strategies.map(\.name)
        #expect(names == ["none", "all", "system", "nuke", "texture", "adaptive", "oracle"])
    }

    @Test func badCarouselRowsAreRefusedNamingThem() {
        let trace = ScrollTrace(samples: [ScrollTrace.Sample(time: .zero, offset: 0)])
        let cases: [([CarouselFeedLayout.Row], String)] = [
            (
                [.cell(height: 50), .carousel(height: 100, itemWidth: 0, itemCount: 3, spacing: 0)],
                "row 1's carousel item width"
            ),
            ([.carousel(height: 100, itemWidth: 10, itemCount: -1, spacing: 0)], "row 0's carousel item count"),
            ([.carousel(height: 100, itemWidth: 10, itemCount: 3, spacing: .nan)], "row 0's carousel spacing"),
            ([.cell(height: -1)], "row 0's height"),
        ]
        for (rows, message) in cases {
            do {
                try scenario(rows: rows, trace: trace).validate()
                Issue.record("accepted: \(message)")
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }
}
