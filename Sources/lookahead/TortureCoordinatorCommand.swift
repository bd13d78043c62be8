#if Tools
import ArgumentParser
import Foundation
import LookaheadTorture

/// `lookahead torture coordinator`: a long seeded run of an app's collection
/// view over a `PrefetchCoordinator` (the coordinator soak).
///
/// Exits with status 1 on any violation: a cell on screen left blank
/// without a request to fill it, showing another item's value or waiting on
/// a demoted request, a visible load restarted, a request no table holds,
/// or the coordinator's tables outgrowing the screen and the window.
struct TortureCoordinatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Soak PrefetchCoordinator with seeded scrolling over a headless view with UIKit's cell prefetching.",
        discussion: """
            Drags, flings, reversals, memory warnings and data that changes — reloads, pages, \
            inserts, deletes and moves near the screen, items reloaded, told before or after the \
            view applies them — at 120 frames a second (not in real time), over a real \
            AsyncFetcher whose loads land a few per frame. Checks every frame that no cell on \
            screen is blank without a display request that will fill it, shows another item's \
            value or waits on a demoted request, that no visible item's load restarts, that the \
            fetcher serves no request the coordinator does not hold, and that its tables stay \
            within a few entries per entry of the screen and the window; reports resident memory \
            after the first 1% of the frames and at the end.
            """
    )

    @Option(help: "Frames to run (1…100000000).")
    var frames: Int = 100_000

    @Option(help: "The seed of the scrolling, the list's changes and the loads' order.")
    var seed: UInt64 = 1

    @Option(
        help:
            "About how many frames between two changes of the list's data (reloads, pages, inserts, deletes, moves; 1…1000000): 1 changes it on every frame."
    )
    var changeEvery: Int = 40

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (1...100_000_000).contains(frames) else {
            throw ValidationError("frames must be between 1 and 100000000, got \(frames)")
        }
        guard (1...1_000_000).contains(changeEvery) else {
            throw ValidationError("change-every must be between 1 and 1000000, got \(changeEvery)")
        }
    }

    @MainActor
    func run() async throws {
        StandardStreams.writeError("torture coordinator: \(frames) frames, seed \(seed)\n")
        let progress = ProgressReporter(
            total: frames, enabled: frames >= 50_000, label: ("torture coordinator", "frames"))
        let report = await CoordinatorSoak.run(frames: frames, seed: seed, changeEvery: changeEvery) {
            progress.update($0)
        }
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
                ("  a cell showing another item's value", "\(report.wrongValues)"),
                ("  a blank cell whose request is missing or demoted", "\(report.blankCellsDemoted)"),
                ("  a visible item's load restarted", "\(report.visibleLoadsRestarted)"),
                ("  a request no table holds", "\(report.untrackedRequests)"),
                ("peak table entries", "\(report.peakTableEntries) (screen + window \(report.peakScreenAndWindow))"),
                ("peak entries per screen + window entry", String(format: "%.2f", report.peakRatio)),
                ("peak share of the frame's table limit", String(format: "%.2f", report.peakShareOfLimit)),
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
                ("batch updates told after the view applied them", "\(report.updatesToldAfter)"),
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
