import Foundation
import Testing

@testable import LookaheadSimulation

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite(.timeLimit(.minutes(1)))
struct SimulationChartTests {
    // MARK: - Structure

    @Test func svgIsWellFormedXMLWithOnePanelPerScenarioAndOneBarPerStrategy() throws {
        // Given two scenarios, one with every built-in strategy and an unknown one
        let names = SimulationStrategy.allCases.map(\.rawValue) + ["adaptive"]
        let report = SimulationReport(
            seed: 42,
            scenarios: [
                .init(name: "feed", strategies: names.enumerated().map { sample($1, index: $0) }),
                .init(name: "photos", strategies: names.prefix(3).enumerated().map { sample($1, index: $0) }),
            ])

        // When it is charted
        let svg = SimulationChart(report: report).svg()

        // Then it parses, has one panel per scenario and, in each, one bar of each kind and one line per strategy
        let document = try parsed(svg)
        let panels = try document.nodes(forXPath: "//*[@class='panel']").compactMap { $0 as? XMLElement }
        #expect(panels.map { attribute("data-scenario", of: $0) } == ["feed", "photos"])
        for (panel, expected) in zip(panels, [names, Array(names.prefix(3))]) {
            for kind in ["bar blank", "bar waste-loads", "bar waste-bytes", "line", "legend"] {
                let strategies = try strategies(in: panel, class: kind)
                #expect(kind == "line" ? strategies.sorted() == expected.sorted() : strategies == expected, "\(kind)")
            }
        }
        #expect(svg.contains("seed 42"))
        #expect(attribute("viewBox", of: document.rootElement()) != nil)
    }

    @Test func namesAreEscaped() throws {
        // Given a scenario and a strategy whose names are markup
        let name = #"a<b&"c"'d>"#
        let report = SimulationReport(
            seed: 1,
            scenarios: [.init(name: name, strategies: [sample(name, index: 0)], findings: ["\(name) beats the oracle"])]
        )

        // When it is charted
        let svg = SimulationChart(report: report).svg()

        // Then the raw name never appears, and the parsed document gives it back intact
        #expect(!svg.contains(name))
        #expect(svg.contains("a&lt;b&amp;&quot;c&quot;&apos;d&gt;"))
        let document = try parsed(svg)
        let panel = try #require(try document.nodes(forXPath: "//*[@class='panel']").first as? XMLElement)
        #expect(attribute("data-scenario", of: panel) == name)
        #expect(try strategies(in: panel, class: "bar blank") == [name])
    }

    @Test func controlCharactersDoNotBreakTheDocument() throws {
        // Given a name with a control character XML 1.0 cannot carry
        let report = SimulationReport(
            seed: 1, scenarios: [.init(name: "bell\u{7}", strategies: [sample("x", index: 0)])])

        // When it is charted, then it still parses
        _ = try parsed(SimulationChart(report: report).svg())
    }

    // MARK: - Determinism

    @Test func sameReportGivesByteIdenticalSVG() {
        // Given two equal reports built separately
        func report() -> SimulationReport {
            let names = SimulationStrategy.allCases.map(\.rawValue) + ["adaptive", "zeta"]
            return SimulationReport(
                seed: 7,
                scenarios: [.init(name: "feed", strategies: names.enumerated().map { sample($1, index: $0) })])
        }

        // When each is charted twice, then every output is the same bytes
        let first = SimulationChart(report: report()).svg()
        #expect(SimulationChart(report: report()).svg() == first)
        #expect(SimulationChart(report: report()).svg() == first)
    }

    // MARK: - Edge cases

    @Test func allZeroReportHasNoNaNOrInfinity() throws {
        // Given strategies with no blanks, no waste, no loads and no seconds of data
        let zero = StrategyResult.zero
        var empty = zero
        empty.name = "empty"
        empty.blankCellFramesPerSecond = []
        let report = SimulationReport(
            seed: 0,
            scenarios: [
                .init(name: "zero", strategies: ["none", "oracle"].map { name in with(zero) { $0.name = name } }),
                .init(name: "no-seconds", strategies: [empty]),
            ])

        // When it is charted
        let svg = SimulationChart(report: report).svg()

        // Then nothing is NaN or infinite, and it parses
        for bad in ["nan", "inf"] { #expect(!svg.lowercased().contains(bad)) }
        _ = try parsed(svg)
    }

    @Test func nonFiniteRatiosAreDrawnAsZero() throws {
        // Given ratios a division by zero could have produced
        var result = sample("system", index: 0)
        result.blankRatio = .nan
        result.wasteRatio = .infinity
        result.byteWasteRatio = -.infinity
        let report = SimulationReport(seed: 0, scenarios: [.init(name: "odd", strategies: [result])])

        // When it is charted, then no non-finite number reaches the output
        let svg = SimulationChart(report: report).svg()
        for bad in ["nan", "inf"] { #expect(!svg.lowercased().contains(bad)) }
        _ = try parsed(svg)
    }

    @Test func noScenariosAndNoStrategiesStillGiveADocument() throws {
        // Given a report with no scenarios, and one with a scenario without strategies
        let reports = [
            SimulationReport(seed: 3),
            SimulationReport(seed: 3, scenarios: [.init(name: "empty", strategies: [])]),
        ]

        // When they are charted, then both parse, the second with its one panel and no bars
        for report in reports {
            let document = try parsed(SimulationChart(report: report).svg())
            let panels = try document.nodes(forXPath: "//*[@class='panel']")
            #expect(panels.count == report.scenarios.count)
            #expect(try document.nodes(forXPath: "//*[@data-strategy]").isEmpty)
        }
    }

    @Test func longRunsAreDownsampledKeepingPeaks() throws {
        // Given a run of a day, with one burst of blank cells
        var result = StrategyResult.zero
        result.name = "none"
        result.blankCellFramesPerSecond = Array(repeating: 1, count: 86_400)
        result.blankCellFramesPerSecond[54_321] = 500
        let report = SimulationReport(seed: 0, scenarios: [.init(name: "day", strategies: [result])])

        // When it is charted
        let document = try parsed(SimulationChart(report: report).svg())

        // Then its line has at most ~300 points, and the burst is still the highest one
        let line = try #require(try document.nodes(forXPath: "//*[@class='line']").first as? XMLElement)
        let points = try #require(attribute("points", of: line)).split(separator: " ")
        #expect(points.count <= SimulationChart.maximumSeriesPoints)
        #expect(points.count > 200)
        let downsampled = SimulationChart.downsampled(result.blankCellFramesPerSecond)
        #expect(downsampled.map(\.value).max() == 500)
        #expect(downsampled.count <= SimulationChart.maximumSeriesPoints)
    }

    @Test func shortRunsKeepEverySecond() {
        // Given a few seconds, when downsampled, then each second is a point at its middle
        #expect(
            SimulationChart.downsampled([3, 0, 7]) == [
                .init(second: 0.5, value: 3), .init(second: 1.5, value: 0), .init(second: 2.5, value: 7),
            ])
    }

    // MARK: - Axes, numbers, colours

    @Test(arguments: [
        (37.0, false, 40.0, 10.0, "10"),
        (0.23, false, 0.25, 0.05, "0.05"),
        (12.0, false, 12.5, 2.5, "2.5"),
        (100.0, false, 100.0, 20.0, "20"),
        (0.0, false, 1.0, 0.2, "0.2"),
        (0.0, true, 1.0, 1.0, "1"),
        (3.0, true, 3.0, 1.0, "1"),
        (12.0, true, 15.0, 5.0, "5"),
        (125.0, true, 150.0, 50.0, "50"),
    ])
    func axesUseRoundSteps(value: Double, integral: Bool, maximum: Double, step: Double, label: String) {
        // Given a value to cover, when an axis is made for it
        let axis = SimulationChart.Axis(covering: value, integral: integral)

        // Then it ends on a round number at or above it, never at zero
        #expect(abs(axis.maximum - maximum) < 1e-9)
        #expect(abs(axis.step - step) < 1e-9)
        #expect(axis.label(axis.step) == label)
        #expect(axis.maximum > 0)
    }

    @Test func numbersHaveFixedPrecision() {
        #expect(SimulationChart.fixed(12.345, decimals: 2) == "12.35")
        #expect(SimulationChart.fixed(0.5, decimals: 0) == "1")
        #expect(SimulationChart.fixed(-0.04, decimals: 1) == "0.0")
        #expect(SimulationChart.fixed(3, decimals: 3) == "3.000")
        #expect(SimulationChart.fixed(.nan, decimals: 2) == "0")
        #expect(SimulationChart.coordinate(120) == "120")
        #expect(SimulationChart.coordinate(120.25) == "120.3")
        #expect(SimulationChart.percent(0.1234, decimals: 1) == "12.3%")
    }

    @Test func coloursAreFixedPerStrategyWithAStableFallback() {
        let builtIn = SimulationStrategy.allCases.map { SimulationChart.colour(for: $0.rawValue) }
        #expect(Set(builtIn).count == builtIn.count)
        #expect(SimulationChart.colour(for: "oracle") == SimulationChart.oracleColour)
        // A strategy the palette does not know gets a spare colour, the same every time.
        let unknown = SimulationChart.colour(for: "tomorrow's policy")
        #expect(SimulationChart.spareColours.contains(unknown))
        #expect(!builtIn.contains(unknown))
        #expect(SimulationChart.colour(for: "tomorrow's policy") == unknown)
    }

    // MARK: - Helpers

    private func parsed(_ svg: String) throws -> XMLDocument {
        try XMLDocument(xmlString: svg, options: [])
    }

    /// An attribute's value, by its name as written (FoundationXML's
    /// `attribute(forName:)` finds nothing in a document with a default namespace).
    private func attribute(_ name: String, of element: XMLElement?) -> String? {
        element?.attributes?.first { $0.name == name }?.stringValue
    }

    private func strategies(in panel: XMLElement, class name: String) throws -> [String] {
        try panel.nodes(forXPath: ".//*[@class='\(name)']").compactMap {
            attribute("data-strategy", of: $0 as? XMLElement)
        }
    }

    private func with(_ result: StrategyResult, _ change: (inout StrategyResult) -> Void) -> StrategyResult {
        var copy = result
        change(&copy)
        return copy
    }

    /// A plausible result, different for each index.
    private func sample(_ name: String, index: Int) -> StrategyResult {
        let visible = 72_000
        let blank = (index * 1_237) % 9_000
        let wasted = index * 37 % 800
        let perSecond: [Int] = (0..<120).map { second in (second * (index + 3) * 7) % (40 + index * 10) }
        return StrategyResult(
            name: name, blankRatio: Double(blank) / Double(visible), blankCellFrames: blank, visibleCellFrames: visible,
            ttcP50Ms: 0, ttcP95Ms: Double(index) * 40, ttcP99Ms: Double(index) * 90, ttcMaxMs: 2_000,
            requests: 900 + index, cancellations: index, completedLoads: 800, wastedLoads: wasted,
            wastedLoadsAtEnd: wasted / 2,
            wasteRatio: Double(wasted) / 800, wastedBytes: index * 70_000,
            byteWasteRatio: Double(wasted) / 800 * 0.9, bytes: 80_000_000, peakCacheBytes: 50_000_000,
            blankCellFramesPerSecond: perSecond, bottomWaitMs: 0)
    }
}

extension StrategyResult {
    /// A strategy that saw nothing and did nothing, over two seconds.
    fileprivate static let zero = StrategyResult(
        name: "zero", blankRatio: 0, blankCellFrames: 0, visibleCellFrames: 0, ttcP50Ms: 0, ttcP95Ms: 0, ttcP99Ms: 0,
        ttcMaxMs: 0, requests: 0, cancellations: 0, completedLoads: 0, wastedLoads: 0, wastedLoadsAtEnd: 0,
        wasteRatio: 0,
        wastedBytes: 0,
        byteWasteRatio: 0, bytes: 0, peakCacheBytes: 0, blankCellFramesPerSecond: [0, 0], bottomWaitMs: 0)
}
