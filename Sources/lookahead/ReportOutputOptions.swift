#if Tools
import ArgumentParser
import Foundation
import LookaheadSimulation

/// The outputs `simulate` and `tune` share: JSON on standard output, an SVG
/// chart, a self-contained HTML page. Results come first: a file that cannot
/// be written must not lose them.
struct ReportOutputOptions: ParsableArguments {
    @Flag(help: "Print the results as JSON on standard output.")
    var json = false

    @Option(help: "Write an SVG chart of blank ratio, waste and blank cells over time to this file.")
    var chart: String?

    @Option(
        name: .customLong("report"),
        help: "Write one self-contained HTML page to this file: the tables, the chart and an animated replay.")
    var htmlReport: String?

    /// `value` as sorted-key JSON on standard output.
    func writeJSON(_ value: some Encodable) throws {
        try StandardStreams.writeJSON(value)
    }

    /// The chart of `report`, if `--chart` asked for one.
    func writeChart(of report: SimulationReport) throws {
        guard let chart else { return }
        try write(SimulationChart(report: report).svg(), to: chart, what: "the chart")
    }

    /// The HTML page of `report`, if `--report` asked for one; `timelines`
    /// are computed only then.
    func writeHTMLReport(
        of report: SimulationReport, title: String = "Lookahead simulation",
        initialPair: (left: String, right: String) = ("system", "adaptive"), timelines: () -> [ReplayTimeline]
    ) throws {
        guard let htmlReport else { return }
        let page = SimulationHTMLReport(
            report: report, timelines: timelines(), title: title, initialPair: initialPair
        ).html()
        try write(page, to: htmlReport, what: "the report")
    }

    private func write(_ text: String, to path: String, what: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            StandardStreams.writeError("wrote \(path)\n")
        } catch {
            throw CommandError("cannot write \(what) to \(path): \(error.localizedDescription)")
        }
    }
}
#endif
