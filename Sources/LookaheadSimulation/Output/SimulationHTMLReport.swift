#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One self-contained HTML page of a simulation: what `lookahead simulate
/// --report FILE.html` writes.
///
/// The page holds the tables, the chart (``SimulationChart``'s SVG, inline)
/// and an animated replay: two strategies side by side scrolling through the
/// trace in time, each cell white until its data lands, with a timeline
/// scrubber and each side's blank cell-frames counting up. It loads nothing
/// from anywhere — no network, no external font, script or stylesheet — so
/// it can be mailed, archived or opened offline.
///
/// The replay counts blank cell-frames itself from the ``ReplayTimeline``s and
/// writes, in an element with the id `totals`, each scenario's and strategy's
/// count next to the simulator's, and `ok` or `mismatch` in the element with
/// the id `check`: what the headless-browser check in CI reads.
public struct SimulationHTMLReport: Sendable {
    /// The results the tables and the chart show.
    public var report: SimulationReport
    /// The replays, one per scenario that has one.
    public var timelines: [ReplayTimeline]
    /// The page's title.
    public var title: String
    /// The strategies the replay shows side by side at first (left, right),
    /// where the timeline has them.
    public var initialPair: (left: String, right: String)

    /// Creates a page.
    public init(
        report: SimulationReport, timelines: [ReplayTimeline], title: String = "Lookahead simulation",
        initialPair: (left: String, right: String) = ("system", "adaptive")
    ) {
        self.report = report
        self.timelines = timelines
        self.title = title
        self.initialPair = initialPair
    }

    /// The page.
    ///
    /// - Complexity: O(size of the report and the timelines).
    public func html() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escaped(title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <h1>\(Self.escaped(title))</h1>
            <p class="note">Seed \(report.seed). Blank cell-frames: for every frame, the visible cells without their \
            data. The lower bound is what no strategy loading item by item can go under; the oracle knows the \
            future.</p>

            """
        if !timelines.isEmpty { page += Self.replaySection }
        page += "<h2>Results</h2>\n"
        for scenario in report.scenarios { page += table(scenario) }
        page += "<h2>Chart</h2>\n<div class=\"chart\">\n"
        let svg = SimulationChart(report: report).svg()
        page += svg.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("<?xml") }
            .joined(separator: "\n")
        page += "\n</div>\n"
        page += "<script type=\"application/json\" id=\"data\">\(embeddedData())</script>\n"
        page += "<script>\(Self.script)</script>\n</body>\n</html>\n"
        return page
    }

    /// One scenario's results as a table.
    func table(_ scenario: SimulationReport.Scenario) -> String {
        var rows = """
            <h3>\(Self.escaped(scenario.name))</h3>
            <table><thead><tr><th>strategy</th><th>blank cell-frames</th><th>blank</th><th>wasted loads</th>\
            <th title="for items within three screens of the last frame: the window held when the trace stops">\
            of them, at the end</th><th>time to content p95</th><th>requests</th></tr></thead><tbody>

            """
        for result in scenario.strategies {
            rows += "<tr><td>\(Self.escaped(result.name))</td><td>\(result.blankCellFrames)</td>"
            rows += "<td>\(Self.percent(result.blankRatio))</td><td>\(result.wastedLoads)</td>"
            rows += "<td>\(result.wastedLoadsAtEnd)</td>"
            rows += "<td>\(Int(result.ttcP95Ms.rounded())) ms</td><td>\(result.requests)</td></tr>\n"
        }
        if let bound = scenario.lowerBound {
            rows += "<tr class=\"bound\"><td>lower bound</td><td>\(bound.blankCellFrames)</td>"
            rows += "<td colspan=\"5\">no per-item strategy goes under it</td></tr>\n"
        }
        rows += "</tbody></table>\n"
        for finding in scenario.findings { rows += "<p class=\"finding\">\(Self.escaped(finding))</p>\n" }
        return rows
    }

    /// The timelines and the initial pair as JSON that is safe inside a `<script>` element.
    func embeddedData() -> String {
        struct Embedded: Encodable {
            let timelines: [ReplayTimeline]
            let left: String
            let right: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json: String
        do {
            let embedded = Embedded(timelines: timelines, left: initialPair.left, right: initialPair.right)
            json = String(decoding: try encoder.encode(embedded), as: UTF8.self)
        } catch {
            // Only strings, integers, finite offsets and arrays of them are encoded.
            preconditionFailure("SimulationHTMLReport: \(error)")
        }
        // `</script>` or `<!--` in a name must not end or confuse the element.
        return json.split(separator: "<", omittingEmptySubsequences: false).joined(separator: "\\u003c")
    }

    /// `text` with the characters HTML gives a meaning to escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    static func percent(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "–" }
        return "\(Double(Int((ratio * 1_000).rounded())) / 10)%"
    }
}
