#if Tools
import ArgumentParser
import Foundation
import LookaheadTorture

/// `lookahead torture coordinator`: a long seeded run of an app's collection
/// view over a `PrefetchCoordinator` (the coordinator soak).
///
/// Exits with status 1 when a cell on screen was left blank without a
/// request to fill it, or the coordinator's tables outgrew the screen and
/// the window.
struct TortureCoordinatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Soak PrefetchCoordinator with seeded scrolling over a headless view with UIKit's cell prefetching.",
        discussion: """
            Drags, flings, reversals, reloads, batch updates and memory warnings at 120 frames \
            a second (not in real time), over a real AsyncFetcher whose loads land a few per frame. \
            Checks every frame that no cell on screen is blank without a display request that \
            will fill it, and that the coordinator's tables stay within a few entries per entry of \
            the screen and the window; reports resident memory after the first 1% of the frames \
            and at the end. A million frames take about two minutes in a release build.
            """
    )

    @Option(help: "Frames to run (1…100000000).")
    var frames: Int = 100_000

    @Option(help: "The seed of the scrolling, the list's changes and the loads' order.")
    var seed: UInt64 = 1

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (1...100_000_000).contains(frames) else {
            throw ValidationError("frames must be between 1 and 100000000, got \(frames)")
        }
    }

    @MainActor
    func run() async throws {
        StandardStreams.writeError("torture coordinator: \(frames) frames, seed \(seed)\n")
        let progress = ProgressReporter(
            total: frames, enabled: frames >= 50_000, label: ("torture coordinator", "frames"))
        let report = await CoordinatorSoak.run(frames: frames, seed: seed) { progress.update($0) }
        if json {
            try StandardStreams.writeJSON(report, pretty: true)
        } else {
            let memory = { (value: Double?) in value.map { String(format: "%.1f MiB", $0) } ?? "n/a" }
            let rows: [(String, String)] = [
                ("seed", "\(report.seed)"),
                ("frames", "\(report.frames)"),
                ("violations", "\(report.violations)"),
                ("  blank cells without a request", "\(report.blankCellsWithoutRequest)"),
                ("  cells left blank once every load landed", "\(report.cellsLeftBlank)"),
                ("  frames over the table limit", "\(report.framesOverLimit)"),
                ("peak table entries", "\(report.peakTableEntries) (screen + window \(report.peakScreenAndWindow))"),
                ("peak entries per screen + window entry", String(format: "%.2f", report.peakRatio)),
                (
                    "blank cell-frames with the value cached (longest run)",
                    "\(report.blankCellFramesWithData) (\(report.longestBlankWithData) frames)"
                ),
                ("cells shown again", "\(report.cellsShownAgain)"),
                ("loads landed", "\(report.loadsLanded)"),
                (
                    "reloads, batch updates, memory warnings",
                    "\(report.reloads), \(report.batchUpdates), \(report.memoryWarnings)"
                ),
                (
                    "resident after warm-up, at end",
                    "\(memory(report.residentMiBAfterWarmUp)), \(memory(report.residentMiBAtEnd))"
                ),
                ("seconds", String(format: "%.1f", report.seconds)),
            ]
            let width = rows.map(\.0.count).max() ?? 0
            StandardStreams.write(
                rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }.joined(
                    separator: "\n") + "\n")
        }
        if report.violations > 0 {
            StandardStreams.writeError("torture coordinator: \(report.violations) violations (seed \(seed))\n")
            throw ExitCode(1)
        }
    }
}
#endif
