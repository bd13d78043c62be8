#if Tools
public import ArgumentParser
import Foundation
import LookaheadBenchmarks

/// The options of `lookahead bench engine`, shared with the `simulate` placeholder.
struct EngineBenchmarkOptions: ParsableArguments {
    @Flag(help: "Print the results as JSON on standard output.")
    var json = false

    @Option(help: "The seed of the generated call sequences.")
    var seed: UInt64 = EngineBenchmark.defaultSeed

    @Option(
        name: .customLong("workload"),
        help:
            "Run only this workload (repeatable): \(EngineBenchmark.Workload.allCases.map(\.rawValue).joined(separator: ", "))."
    )
    var workloads: [EngineBenchmark.Workload] = []

    @Option(
        help:
            "Runs of each fast workload per fetcher, 1...1000; the report gives the median run (fetch-cancel runs once)."
    )
    var repetitions = 5

    @Flag(help: "Run both fetchers in this one process (by default each measurement runs in a fresh process).")
    var inProcess = false

    @Option(
        help: ArgumentHelp("Run one measurement, WORKLOAD:SIDE, and print its report as JSON.", visibility: .hidden))
    var isolatedRun: String?

    @Option(help: "Give up, with a message, when one step runs longer than this many seconds (1...86400).")
    var stepTimeLimit: Double = 600

    func validate() throws {
        try OptionRange.check(repetitions, "--repetitions", in: 1...1_000, "runs")
        try OptionRange.check(stepTimeLimit, "--step-time-limit", in: 1...86_400, "seconds")
    }

    /// The run whose time for its one workload is the median of `runs`.
    static func median(of runs: [EngineBenchmarkReport], side: EngineBenchmark.Side) -> EngineBenchmarkReport {
        func seconds(_ report: EngineBenchmarkReport) -> Double {
            side == .baseline ? report.results.first?.baseline ?? 0 : report.results.first?.lookahead ?? 0
        }
        let sorted = runs.sorted { seconds($0) < seconds($1) }
        return sorted.isEmpty ? EngineBenchmarkReport() : sorted[sorted.count / 2]
    }

    var selectedWorkloads: [EngineBenchmark.Workload] {
        EngineBenchmark.Workload.allCases.filter { workloads.isEmpty || workloads.contains($0) }
    }

    func runEngineBenchmark() async throws {
        if let isolatedRun {
            try await runIsolated(isolatedRun)
            return
        }
        StandardStreams.warnIfDebugBuild(release: "swift run -c release lookahead bench engine")
        StandardStreams.writeError("engine benchmark, seed \(seed)\n")
        let watchdog = StepWatchdog(timeLimit: stepTimeLimit)
        var report = EngineBenchmarkReport()
        if inProcess {
            report = await EngineBenchmark(seed: seed).run(Set(selectedWorkloads)) { step in
                watchdog.begin(step)
                StandardStreams.writeError(step + "\n")
            }
        } else {
            for workload in selectedWorkloads {
                // fetch-cancel's baseline alone takes about 30 s: it runs once.
                let rounds = workload == .fetchCancel ? 1 : repetitions
                var runs: [EngineBenchmark.Side: [EngineBenchmarkReport]] = [:]
                for round in 1...rounds {
                    // Sides alternate, so that drift on the machine touches both.
                    for side in EngineBenchmark.Side.allCases {
                        let name = side == .baseline ? "baseline" : "Lookahead"
                        let step = "running \(workload.rawValue) (\(name), \(round)/\(rounds))…"
                        watchdog.begin(step)
                        StandardStreams.writeError(step + "\n")
                        runs[side, default: []].append(try runChild(workload: workload, side: side))
                    }
                }
                for side in EngineBenchmark.Side.allCases {
                    report.merge(Self.median(of: runs[side] ?? [], side: side))
                }
            }
        }
        watchdog.end()

        if json {
            try StandardStreams.writeJSON(report)
        } else {
            StandardStreams.write(report.table())
        }
    }

    /// Runs one measurement in this process and prints its report.
    private func runIsolated(_ spec: String) async throws {
        let parts = spec.split(separator: ":").map(String.init)
        guard parts.count == 2, let workload = EngineBenchmark.Workload(rawValue: parts[0]),
            let side = EngineBenchmark.Side(rawValue: parts[1])
        else {
            throw ValidationError("--isolated-run takes WORKLOAD:SIDE, e.g. mixed:lookahead; got '\(spec)'")
        }
        let report = await EngineBenchmark(seed: seed).run([workload], sides: [side]) { _ in }
        try StandardStreams.writeJSON(report)
    }

    /// Runs one measurement in a fresh copy of this executable, so that no
    /// measurement inherits another's threads or heap.
    private func runChild(
        workload: EngineBenchmark.Workload, side: EngineBenchmark.Side
    ) throws
        -> EngineBenchmarkReport
    {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [
            "bench", "engine", "--seed", String(seed), "--isolated-run", "\(workload.rawValue):\(side.rawValue)",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError(
                "the \(workload.rawValue) measurement of the \(side.rawValue) exited with status \(process.terminationStatus)"
            )
        }
        return try JSONDecoder().decode(EngineBenchmarkReport.self, from: data)
    }
}

extension EngineBenchmark.Workload: ExpressibleByArgument {}
#endif
