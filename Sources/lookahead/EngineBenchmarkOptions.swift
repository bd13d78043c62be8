import ArgumentParser
import EngineBenchmarks
import Foundation

/// The options of `lookahead bench engine`, shared with the `simulate` placeholder.
struct EngineBenchmarkOptions: ParsableArguments {
    @Flag(help: "Print the results as JSON on standard output.")
    var json = false

    @Option(help: "The seed of the generated call sequences.")
    var seed: UInt64 = EngineBenchmark.defaultSeed

    @Option(help: "Give up, with a message, when one step runs longer than this many seconds.")
    var stepTimeLimit: Double = 600

    func runEngineBenchmark() async throws {
        #if DEBUG
            StandardStreams.writeError(
                """
                warning: this is a debug build; the figures are only meaningful in release \
                (swift run -c release lookahead bench engine)

                """)
        #endif
        StandardStreams.writeError("engine benchmark, seed \(seed)\n")
        let watchdog = StepWatchdog(timeLimit: stepTimeLimit)
        let report = await EngineBenchmark(seed: seed).run { step in
            watchdog.begin(step)
            StandardStreams.writeError(step + "\n")
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
}
