// Where each part of a scenario's panel of the chart goes.

extension SimulationChart {
    /// Where everything of one scenario's panel goes, from its top and its contents.
    struct PanelLayout {
        static let left = 12.0
        static let right = Layout.width - 12
        static let nameRight = 112.0
        static let blankLeft = 120.0
        static let blankWidth = 330.0
        static let wasteLeft = 540.0
        static let wasteWidth = 300.0
        static let rowHeight = 26.0
        static let linePlotLeft = blankLeft
        static let linePlotRight = 800.0
        static let legendLeft = 824.0
        static let legendRowHeight = 18.0
        static let findingHeight = 16.0

        let top: Double
        let rowsTop: Double
        let barAxisY: Double
        let lineHeadingY: Double
        let linePlotTop: Double
        let linePlotBottom: Double
        let findingsTop: Double
        let bottom: Double

        init(top: Double, scenario: SimulationReport.Scenario) {
            self.top = top
            let strategies = Double(scenario.strategies.count)
            let findings = Double(scenario.findings.count)
            rowsTop = top + 64
            if scenario.strategies.isEmpty {
                barAxisY = rowsTop
                lineHeadingY = rowsTop
                linePlotTop = rowsTop
                linePlotBottom = rowsTop
                findingsTop = rowsTop + 8
            } else {
                barAxisY = rowsTop + strategies * Self.rowHeight + 2
                lineHeadingY = barAxisY + 48
                linePlotTop = lineHeadingY + 14
                linePlotBottom = linePlotTop + max(150, strategies * Self.legendRowHeight + 8)
                findingsTop = linePlotBottom + 48
            }
            bottom = findingsTop + findings * Self.findingHeight
        }
    }

    /// The longest name shown in full beside a bar or in a legend; longer ones
    /// are shortened, with the full name as a tooltip.
    static let shownNameLength = 14

    func writePanel(_ scenario: SimulationReport.Scenario, layout: PanelLayout, into writer: inout SVGWriter) {
        writer.open("g", [("class", "panel"), ("data-scenario", scenario.name)])
        writer.element(
            "rect",
            [
                ("x", Self.coordinate(PanelLayout.left)), ("y", Self.coordinate(layout.top)),
                ("width", Self.coordinate(PanelLayout.right - PanelLayout.left)),
                ("height", Self.coordinate(layout.bottom - layout.top)), ("rx", "8"), ("fill", "#F6F6F8"),
                ("stroke", "#E5E5EA"),
            ])
        // Shortened so that it stays clear of the summary on the right.
        writer.text(
            Self.shortened(scenario.name, to: 48), tooltip: scenario.name,
            [("class", "scenario"), ("x", "24"), ("y", Self.coordinate(layout.top + 28))])
        if let first = scenario.strategies.first {
            let seconds = scenario.strategies.map(\.blankCellFramesPerSecond.count).max() ?? 0
            writer.element(
                "text",
                [
                    ("class", "note"), ("x", Self.coordinate(PanelLayout.right - 12)),
                    ("y", Self.coordinate(layout.top + 28)), ("text-anchor", "end"),
                ],
                text:
                    "\(first.visibleCellFrames) visible cell-frames · \(seconds) s · \(scenario.strategies.count) strategies"
            )
            writeBlankBars(scenario.strategies, lowerBound: scenario.lowerBound, layout: layout, into: &writer)
            writeWasteBars(scenario.strategies, layout: layout, into: &writer)
            writeLines(scenario.strategies, layout: layout, into: &writer)
        } else {
            writer.element(
                "text", [("class", "note"), ("x", "24"), ("y", Self.coordinate(layout.top + 52))],
                text: "No strategies were run.")
        }
        for (index, finding) in scenario.findings.enumerated() {
            let y = layout.findingsTop + Double(index) * PanelLayout.findingHeight
            writer.text(
                Self.shortened("Finding: " + finding, to: 150), tooltip: "Finding: " + finding,
                [("class", "finding"), ("x", "24"), ("y", Self.coordinate(y))])
        }
        writer.close()
    }

    // MARK: - Bars

    private func writeBlankBars(
        _ results: [StrategyResult], lowerBound: LowerBound?, layout: PanelLayout, into writer: inout SVGWriter
    ) {
        let axis = Axis(covering: results.map { Self.sanitized($0.blankRatio) * 100 }.max() ?? 0)
        writeBarAxis(
            axis, heading: "Blank ratio (% of visible cell-frames)", left: PanelLayout.blankLeft,
            width: PanelLayout.blankWidth, layout: layout, into: &writer)
        if let oracle = results.first(where: { Self.isOracle($0.name) }) {
            // A line through every row at the oracle's value: how far each bar is from the reference.
            let x =
                PanelLayout.blankLeft + barLength(Self.sanitized(oracle.blankRatio) * 100, axis, PanelLayout.blankWidth)
            writer.element(
                "line",
                [
                    ("class", "reference"), ("x1", Self.coordinate(x)), ("y1", Self.coordinate(layout.rowsTop)),
                    ("x2", Self.coordinate(x)), ("y2", Self.coordinate(layout.barAxisY)),
                    ("stroke", Self.oracleColour), ("stroke-width", "1"), ("stroke-dasharray", "3 3"),
                    ("opacity", "0.6"),
                ])
        }
        if let lowerBound, let visible = results.first?.visibleCellFrames, visible > 0 {
            // A solid line at the lower bound: no per-item bar can end left of it.
            let ratio = Double(lowerBound.blankCellFrames) / Double(visible) * 100
            let x = PanelLayout.blankLeft + barLength(Self.sanitized(ratio), axis, PanelLayout.blankWidth)
            writer.element(
                "line",
                [
                    ("class", "reference bound"), ("x1", Self.coordinate(x)), ("y1", Self.coordinate(layout.rowsTop)),
                    ("x2", Self.coordinate(x)), ("y2", Self.coordinate(layout.barAxisY)),
                    ("stroke", Self.oracleColour), ("stroke-width", "2"),
                ])
        }
        for (index, result) in results.enumerated() {
            let rowTop = layout.rowsTop + Double(index) * PanelLayout.rowHeight
            writer.text(
                Self.shortened(result.name, to: Self.shownNameLength), tooltip: result.name,
                [
                    ("class", "name"), ("data-strategy", result.name), ("x", Self.coordinate(PanelLayout.nameRight)),
                    ("y", Self.coordinate(rowTop + 17)), ("text-anchor", "end"),
                ])
            let length = barLength(Self.sanitized(result.blankRatio) * 100, axis, PanelLayout.blankWidth)
            writeBar(
                "bar blank", result.name, x: PanelLayout.blankLeft, y: rowTop + 4, width: length, height: 18,
                tooltip: "\(result.name): \(Self.percent(result.blankRatio, decimals: 2)) blank — "
                    + "\(result.blankCellFrames) of \(result.visibleCellFrames) visible cell-frames",
                into: &writer)
            writer.element(
                "text",
                [
                    ("class", "value"), ("x", Self.coordinate(PanelLayout.blankLeft + length + 5)),
                    ("y", Self.coordinate(rowTop + 17)),
                ],
                text: Self.percent(result.blankRatio, decimals: 2))
        }
    }

    private func writeWasteBars(_ results: [StrategyResult], layout: PanelLayout, into writer: inout SVGWriter) {
        let largest = results.map { max(Self.sanitized($0.wasteRatio), Self.sanitized($0.byteWasteRatio)) }.max() ?? 0
        let axis = Axis(covering: largest * 100)
        writeBarAxis(
            axis, heading: "Waste (% of completed loads; thin: of bytes)", left: PanelLayout.wasteLeft,
            width: PanelLayout.wasteWidth, layout: layout, into: &writer)
        for (index, result) in results.enumerated() {
            let rowTop = layout.rowsTop + Double(index) * PanelLayout.rowHeight
            let loads = barLength(Self.sanitized(result.wasteRatio) * 100, axis, PanelLayout.wasteWidth)
            let bytes = barLength(Self.sanitized(result.byteWasteRatio) * 100, axis, PanelLayout.wasteWidth)
            writeBar(
                "bar waste-loads", result.name, x: PanelLayout.wasteLeft, y: rowTop + 3, width: loads, height: 12,
                tooltip: "\(result.name): \(result.wastedLoads) of \(result.completedLoads) completed loads never seen",
                into: &writer)
            writeBar(
                "bar waste-bytes", result.name, x: PanelLayout.wasteLeft, y: rowTop + 17, width: bytes, height: 5,
                tooltip: "\(result.name): \(result.wastedBytes) bytes of loads never seen", into: &writer)
            // Nothing wasted needs saying once, in the middle of the row.
            let wasted = loads > 0 || bytes > 0
            writer.element(
                "text",
                [
                    ("class", "value"), ("x", Self.coordinate(PanelLayout.wasteLeft + loads + 5)),
                    ("y", Self.coordinate(rowTop + (wasted ? 13 : 17))),
                ],
                text: Self.percent(result.wasteRatio, decimals: 1))
            guard wasted else { continue }
            writer.element(
                "text",
                [
                    ("class", "minor"), ("x", Self.coordinate(PanelLayout.wasteLeft + bytes + 5)),
                    ("y", Self.coordinate(rowTop + 24)),
                ],
                text: Self.percent(result.byteWasteRatio, decimals: 1) + " of bytes")
        }
    }

    /// A bar column's heading above it, then vertical grid lines through the
    /// rows and percentage ticks under them.
    private func writeBarAxis(
        _ axis: Axis, heading: String, left: Double, width: Double, layout: PanelLayout, into writer: inout SVGWriter
    ) {
        writer.element(
            "text", [("class", "heading"), ("x", Self.coordinate(left)), ("y", Self.coordinate(layout.top + 54))],
            text: heading)
        for tick in axis.ticks() {
            let x = Self.coordinate(left + barLength(tick, axis, width))
            writer.element(
                "line",
                [
                    ("x1", x), ("y1", Self.coordinate(layout.rowsTop)), ("x2", x),
                    ("y2", Self.coordinate(layout.barAxisY)), ("stroke", tick == 0 ? "#8E8E93" : "#E0E0E5"),
                ])
            writer.element(
                "text",
                [("class", "tick"), ("x", x), ("y", Self.coordinate(layout.barAxisY + 14)), ("text-anchor", "middle")],
                text: axis.label(tick) + "%")
        }
    }

    private func writeBar(
        _ kind: String, _ strategy: String, x: Double, y: Double, width: Double, height: Double, tooltip: String,
        into writer: inout SVGWriter
    ) {
        var attributes = [
            ("class", kind), ("data-strategy", strategy), ("x", Self.coordinate(x)), ("y", Self.coordinate(y)),
            ("width", Self.coordinate(width)), ("height", Self.coordinate(height)),
        ]
        if Self.isOracle(strategy) {
            attributes += [
                ("fill", "url(#\(Layout.oracleHatchID))"), ("stroke", Self.oracleColour), ("stroke-width", "1.5"),
            ]
        } else {
            attributes.append(("fill", Self.colour(for: strategy)))
        }
        writer.open("rect", attributes)
        writer.element("title", text: tooltip)
        writer.close()
    }

    private func barLength(_ value: Double, _ axis: Axis, _ width: Double) -> Double {
        min(width, max(0, value / axis.maximum * width))
    }

    // MARK: - Lines

    private func writeLines(_ results: [StrategyResult], layout: PanelLayout, into writer: inout SVGWriter) {
        let left = PanelLayout.linePlotLeft
        let plotWidth = PanelLayout.linePlotRight - left
        let plotHeight = layout.linePlotBottom - layout.linePlotTop
        writer.element(
            "text", [("class", "heading"), ("x", Self.coordinate(left)), ("y", Self.coordinate(layout.lineHeadingY))],
            text: "Blank cells over time (blank cell-frames per second)")
        let seconds = results.map(\.blankCellFramesPerSecond.count).max() ?? 0
        guard seconds > 0 else {
            writer.element(
                "text",
                [("class", "note"), ("x", Self.coordinate(left)), ("y", Self.coordinate(layout.linePlotTop + 20))],
                text: "No per-second data.")
            return
        }
        let series = results.map { Self.downsampled($0.blankCellFramesPerSecond) }
        let largest = series.lazy.flatMap { $0.map(\.value) }.max() ?? 0
        let yAxis = Axis(covering: Double(largest), targetTicks: 4, integral: true)
        let xAxis = Axis(covering: Double(seconds), targetTicks: 8, integral: true)
        func x(_ second: Double) -> Double { left + second / Double(seconds) * plotWidth }
        func y(_ value: Double) -> Double { layout.linePlotBottom - min(1, max(0, value / yAxis.maximum)) * plotHeight }

        for tick in yAxis.ticks() {
            let tickY = Self.coordinate(y(tick))
            writer.element(
                "line",
                [
                    ("x1", Self.coordinate(left)), ("y1", tickY), ("x2", Self.coordinate(PanelLayout.linePlotRight)),
                    ("y2", tickY), ("stroke", tick == 0 ? "#8E8E93" : "#E0E0E5"),
                ])
            writer.element(
                "text",
                [
                    ("class", "tick"), ("x", Self.coordinate(PanelLayout.nameRight)),
                    ("y", Self.coordinate(y(tick) + 3.5)), ("text-anchor", "end"),
                ],
                text: yAxis.label(tick))
        }
        for tick in xAxis.ticks(upTo: Double(seconds)) {
            let tickX = Self.coordinate(x(tick))
            writer.element(
                "line",
                [
                    ("x1", tickX), ("y1", Self.coordinate(layout.linePlotBottom)), ("x2", tickX),
                    ("y2", Self.coordinate(layout.linePlotBottom + 4)), ("stroke", "#8E8E93"),
                ])
            writer.element(
                "text",
                [
                    ("class", "tick"), ("x", tickX), ("y", Self.coordinate(layout.linePlotBottom + 16)),
                    ("text-anchor", "middle"),
                ],
                text: xAxis.label(tick))
        }
        writer.element(
            "text",
            [
                ("class", "tick"), ("x", Self.coordinate(PanelLayout.linePlotRight)),
                ("y", Self.coordinate(layout.linePlotBottom + 30)), ("text-anchor", "end"),
            ],
            text: "time (s)")

        // The oracle last, so its dashes lie over the lines they are compared with.
        let order =
            results.indices.filter { !Self.isOracle(results[$0].name) }
            + results.indices.filter { Self.isOracle(results[$0].name) }
        for index in order {
            var points = series[index]
            if points.count == 1 {
                // One second: a flat segment across it, since a lone point draws nothing.
                points = [
                    SeriesPoint(second: 0, value: points[0].value), SeriesPoint(second: 1, value: points[0].value),
                ]
            }
            let name = results[index].name
            writer.element(
                "polyline",
                [
                    ("class", "line"), ("data-strategy", name),
                    (
                        "points",
                        points.map { "\(Self.coordinate(x($0.second))),\(Self.coordinate(y(Double($0.value))))" }
                            .joined(separator: " ")
                    ),
                ] + lineStyle(for: name))
        }
        for (index, result) in results.enumerated() {
            let rowY = layout.linePlotTop + 8 + Double(index) * PanelLayout.legendRowHeight
            writer.element(
                "line",
                [
                    ("class", "legend"), ("data-strategy", result.name),
                    ("x1", Self.coordinate(PanelLayout.legendLeft)),
                    ("y1", Self.coordinate(rowY)), ("x2", Self.coordinate(PanelLayout.legendLeft + 22)),
                    ("y2", Self.coordinate(rowY)),
                ] + lineStyle(for: result.name))
            writer.text(
                Self.shortened(result.name, to: Self.shownNameLength), tooltip: result.name,
                [("x", Self.coordinate(PanelLayout.legendLeft + 28)), ("y", Self.coordinate(rowY + 4))])
        }
    }

    private func lineStyle(for strategy: String) -> [(String, String)] {
        var style = [
            ("fill", "none"), ("stroke", Self.colour(for: strategy)), ("stroke-width", "1.75"),
            ("stroke-linejoin", "round"), ("stroke-linecap", "round"),
        ]
        if Self.isOracle(strategy) { style.append(("stroke-dasharray", "5 3")) }
        return style
    }

    /// `text` cut to `length` characters, the last one an ellipsis, if it is longer.
    static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(max(0, length - 1))) + "…"
    }
}
