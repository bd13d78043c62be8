/// A chart of a ``SimulationReport`` as a self-contained SVG document: what
/// `lookahead simulate --chart FILE.svg` writes.
///
/// One panel per scenario, stacked vertically. Each panel shows the blank
/// ratio of every strategy as horizontal bars, next to the waste (completed
/// loads never seen, by count and by bytes), and below them the blank
/// cell-frames of every strategy second by second. The oracle is hatched in
/// the bars and dashed in the lines: it is the reference the others are
/// measured against. A strategy has the same colour in every panel.
///
/// The document uses no external font, script or stylesheet, and is a pure
/// function of the report: the same report gives byte-identical SVG, so a
/// chart can be checked in and diffed like the JSON.
public struct SimulationChart: Sendable {
    public var report: SimulationReport

    public init(report: SimulationReport) {
        self.report = report
    }

    /// The chart as an SVG document.
    ///
    /// - Complexity: O(*s* × *t*) for *s* strategy results and *t* points per
    ///   line, where *t* is at most ~300 however long the runs.
    public func svg() -> String {
        var writer = SVGWriter()
        var panels: [(scenario: SimulationReport.Scenario, layout: PanelLayout)] = []
        var top = Layout.headerHeight
        for scenario in report.scenarios {
            let layout = PanelLayout(top: top, scenario: scenario)
            panels.append((scenario, layout))
            top = layout.bottom + Layout.panelGap
        }
        if report.scenarios.isEmpty { top += 40 }
        let height = top - Layout.panelGap + Layout.margin

        writer.raw(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        writer.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("viewBox", "0 0 \(Self.coordinate(Layout.width)) \(Self.coordinate(height))"),
                ("width", Self.coordinate(Layout.width)), ("height", Self.coordinate(height)),
                ("font-family", Layout.fontFamily), ("role", "img"),
            ])
        writer.element("title", text: "Lookahead simulation, seed \(report.seed)")
        writeDefinitions(into: &writer)
        writer.element(
            "rect",
            [("width", "100%"), ("height", "100%"), ("fill", "#FFFFFF")])
        writeHeader(into: &writer)
        if report.scenarios.isEmpty {
            writer.element(
                "text", [("class", "note"), ("x", Self.coordinate(Layout.margin)), ("y", "100")],
                text: "No scenarios were run.")
        }
        for (scenario, layout) in panels {
            writePanel(scenario, layout: layout, into: &writer)
        }
        writer.close()
        return writer.text
    }

    private func writeDefinitions(into writer: inout SVGWriter) {
        writer.open("style")
        writer.raw(
            """
            text { fill: #1D1D1F; font-size: 12px; }
            .title { font-size: 20px; font-weight: 600; }
            .subtitle, .note, .tick, .minor { fill: #6E6E73; }
            .subtitle { font-size: 12px; }
            .scenario { font-size: 16px; font-weight: 600; }
            .heading { font-size: 12px; font-weight: 600; fill: #3A3A3C; }
            .note { font-size: 11px; }
            .tick { font-size: 10px; }
            .value { font-size: 11px; }
            .minor { font-size: 9px; }
            .finding { font-size: 11px; fill: #B3261E; }
            """)
        writer.close()
        writer.open("defs")
        // Hatching marks the oracle as the reference rather than a contender.
        writer.open(
            "pattern",
            [
                ("id", Layout.oracleHatchID), ("patternUnits", "userSpaceOnUse"), ("width", "6"), ("height", "6"),
                ("patternTransform", "rotate(45)"),
            ])
        writer.element("rect", [("width", "6"), ("height", "6"), ("fill", "#FFFFFF")])
        writer.element(
            "line",
            [
                ("x1", "0"), ("y1", "0"), ("x2", "0"), ("y2", "6"), ("stroke", Self.oracleColour),
                ("stroke-width", "2.5"),
            ])
        writer.close()
        writer.close()
    }

    private func writeHeader(into writer: inout SVGWriter) {
        let x = Self.coordinate(Layout.margin)
        writer.element(
            "text", [("class", "title"), ("x", x), ("y", "36")], text: "Lookahead simulation · seed \(report.seed)")
        writer.element(
            "text", [("class", "subtitle"), ("x", x), ("y", "58")],
            text: "Blank ratio: share of visible cell-frames without their data (lower is better). "
                + "Waste: completed loads never seen, by count and by bytes.")
        writer.element(
            "text", [("class", "subtitle"), ("x", x), ("y", "76")],
            text:
                "Hatched bars, dashed lines: the oracle, which knows the future. Solid line: the lower bound, which no strategy can pass."
        )
    }
}

extension SimulationChart {
    /// Fixed geometry, in SVG user units (CSS pixels at 100%).
    enum Layout {
        static let width = 960.0
        static let margin = 24.0
        static let headerHeight = 96.0
        static let panelGap = 16.0
        static let oracleHatchID = "oracle-hatch"
        static let fontFamily =
            "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Helvetica, Arial, sans-serif"
    }
}
