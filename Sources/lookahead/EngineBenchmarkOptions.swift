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

    @Flag(help: "Run both fetchers in this one process (by default each measurement runs in a fresh process).")
    var inProcess = false

    @Option(
        help: ArgumentHelp("Run one measurement, WORKLOAD:SIDE, and print its report as JSON.", visibility: .hidden))
    var isolatedRun: String?

    @Option(help: "Give up, with a message, when one step runs longer than this many seconds.")
    var stepTimeLimit: Double = 600

    var selectedWorkloads: [EngineBenchmark.Workload] {
        EngineBenchmark.Workload.allCases.filter { workloads.isEmpty || workloads.contains($0) }
    }

    func runEngineBenchmark() async throws {
        if let isolatedRun {
            try await runIsolated(isolatedRun)
            return
        }
        #if DEBUG
            StandardStreams.writeError(
                """
                warning: this is a debug build; the figures are only meaningful in release \
                (swift run -c release lookahead bench engine)

                """)
        #endif
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
                for side in EngineBenchmark.Side.allCases {
                    let step = "running \(workload.rawValue) (\(side == .baseline ? "baseline" : "Lookahead"))…"
                    watchdog.begin(step)
                    StandardStreams.writeError(step + "\n")
                    report.merge(try runChild(workload: workload, side: side))
                }
            }
        }
        watchdog.end()

        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(report)
            StandardStreams.write(String(decoding: data, as: UTF8.self) + "\n")
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        StandardStreams.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
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
