#if Tools
import ArgumentParser
import Foundation
import Lookahead
import LookaheadTorture

/// `lookahead torture fetcher`: a seeded random operation mix over a real
/// `AsyncFetcher` and its `Prefetcher`s, checked against a reference model.
///
/// Exits with status 1 when any violation is found, and 2 when a round stalls
/// (a deadlock or a fetcher that never becomes idle).
struct TortureFetcherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetcher",
        abstract: "Torture AsyncFetcher and Prefetcher with a seeded random operation mix.",
        discussion: """
            Threads issue fetches, value awaits and their cancellations, prefetches, pauses, \
            priority and concurrency changes, cache trims and releases of prefetchers and \
            observations, over a loader that fails (transiently and permanently), holds loads \
            and ignores cancellation. Every request is checked against a reference model; the \
            run reports misdeliveries, lost and duplicate completions, unexpected failures, \
            loads running at idle, and what outlives the released fetcher.
            """
    )

    @Option(help: "Operations to perform over all threads (1…1000000000).")
    var operations: Int = 100_000

    @Option(help: "The seed of the operation mix and the loader's outcomes.")
    var seed: UInt64 = 1

    @Option(help: "Threads issuing operations at once (1…64).")
    var threads: Int = 4

    @Flag(
        inversion: .prefixedNo,
        help: "Whether didComplete closures and observation handlers capture other prefetchers and observations.")
    var reentrantRelease = true

    @Option(help: "Seconds a round of operations (with its checkpoint) may take before the run is declared stalled.")
    var stallLimit: Double = 120

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        let configuration = makeConfiguration()
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(error.description)
        }
        guard stallLimit.isFinite, (1...86_400).contains(stallLimit) else {
            throw ValidationError("stall-limit must be between 1 and 86400 seconds, got \(stallLimit)")
        }
    }

    func makeConfiguration() -> FetcherTortureConfiguration {
        var configuration = FetcherTortureConfiguration(operations: operations, seed: seed)
        configuration.threads = threads
        configuration.includesReentrantRelease = reentrantRelease
        return configuration
    }

    func run() async throws {
        let torture = try FetcherTorture(configuration: makeConfiguration())
        StandardStreams.writeError(
            "torture fetcher: \(operations) operations, seed \(seed), \(threads) threads, "
                + "re-entrant release \(reentrantRelease ? "on" : "off")\n")
        let watchdog = StepWatchdog(timeLimit: stallLimit)
        let seed = self.seed
        let total = operations
        let reportsProgress = total >= 50_000
        let progress = ProgressReporter(total: total, enabled: reportsProgress)
        watchdog.begin("round 1 (seed \(seed))")
        let report = await torture.run { done in
            watchdog.end()
            progress.update(done)
            if done < total { watchdog.begin("operations after \(done) (seed \(seed))") }
        }
        if json {
            try StandardStreams.writeJSON(report, pretty: true)
        } else {
            StandardStreams.write(Self.table(report))
        }
        if report.violations > 0 {
            StandardStreams.writeError("torture fetcher: \(report.violations) violations (seed \(seed))\n")
            throw ExitCode(1)
        }
    }

    static func table(_ report: FetcherTortureReport) -> String {
        let rows: [(String, String)] = [
            ("seed", "\(report.seed)"),
            ("operations", "\(report.operations)"),
            ("threads", "\(report.threads)"),
            ("re-entrant release", report.reentrantRelease ? "on" : "off"),
            ("violations", "\(report.violations)"),
            ("  misdelivered", "\(report.requests.misdelivered)"),
            ("  lost completions", "\(report.requests.lostCompletions)"),
            ("  duplicate completions", "\(report.requests.duplicateCompletions)"),
            ("  leaked tasks", "\(report.leakedTasks)"),
            ("  unexpected failures", "\(report.requests.unexpectedFailures)"),
            ("  loads active at idle", "\(report.loadsActiveAtIdle)"),
            ("  stuck prefetches", "\(report.stuckPrefetches)"),
            ("requests checked", "\(report.requests.made)"),
            ("  values", "\(report.requests.values)"),
            ("  loader failures", "\(report.requests.loaderFailures)"),
            ("  cancelled", "\(report.requests.cancellations)"),
            ("loader calls", "\(report.loader.calls)"),
            ("  transient failures", "\(report.loader.transientFailures)"),
            ("  permanent failures", "\(report.loader.permanentFailures)"),
            ("  gave up when cancelled", "\(report.loader.cancelled)"),
            ("  finished though cancelled", "\(report.loader.ignoredCancellations)"),
            ("fetcher loads started", "\(report.fetcher.loadsStarted)"),
            ("  completed", "\(report.fetcher.loadsCompleted)"),
            ("  failed", "\(report.fetcher.loadsFailed)"),
            ("  cancelled", "\(report.fetcher.loadsCancelled)"),
            ("retries scheduled", "\(report.fetcher.retriesScheduled)"),
            ("cache hits", "\(report.fetcher.cacheHits)"),
            ("checkpoints", "\(report.checkpoints)"),
            ("elapsed", String(format: "%.2f s", report.elapsedSeconds)),
            ("operations/s", String(format: "%.0f", report.operationsPerSecond)),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
            .joined(separator: "\n") + "\n"
    }
}

/// Progress on standard error, at most every tenth of the run, for long runs.
final class ProgressReporter: Sendable {
    private let total: Int
    private let enabled: Bool
    /// What is counted, as the line says it: "torture fetcher: 10/100 operations".
    private let label: (command: String, unit: String)
    private let lastTenth = LockedValue(0)

    init(total: Int, enabled: Bool, label: (command: String, unit: String) = ("torture fetcher", "operations")) {
        self.total = total
        self.enabled = enabled
        self.label = label
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let tenth = done * 10 / max(total, 1)
        let advanced = lastTenth.withLock { last in
            defer { last = max(last, tenth) }
            return tenth > last
        }
        guard advanced else { return }
        StandardStreams.writeError("\(label.command): \(done)/\(total) \(label.unit)\n")
    }
}
#endif
