#if Tools
import ArgumentParser
import Foundation
import LookaheadTorture

/// `lookahead torture disk`: a child process writes, reads and sweeps a
/// `DiskCache` and is killed at random moments; each kill is followed by a
/// check of everything the child reported committed.
///
/// The child is this executable again, started with the hidden `--child-*`
/// options. The hidden `--measure-contains` option instead measures the worst
/// `contains()` latency while another thread sweeps `--entries` entries.
struct TortureDiskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk",
        abstract: "Torture DiskCache: kill a writing child process at random moments, then check what it committed."
    )

    @Option(help: "How many times to kill the writing child (1...100000).")
    var kills = 100

    @Option(help: "The seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "The longest a child runs before it is killed, in milliseconds (1...60000).")
    var maxRunMilliseconds = 300

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(help: .hidden)
    var measureContains = false

    @Option(help: .hidden)
    var entries = 20_000

    @Option(help: .hidden)
    var childRound: Int?

    @Option(help: .hidden)
    var childDirectory: String?

    @Option(help: .hidden)
    var childExpected: String?

    func run() async throws {
        var configuration = DiskTortureConfiguration(kills: kills, seed: seed)
        configuration.maxRunMilliseconds = maxRunMilliseconds
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(error.description)
        }
        if measureContains {
            try printMeasurement()
        } else if let childRound, let childDirectory, let childExpected {
            try DiskTorture.runChild(
                configuration: configuration, directory: childDirectory, expectedFile: childExpected, round: childRound)
        } else {
            try runParent(configuration)
        }
    }

    private func runParent(_ configuration: DiskTortureConfiguration) throws {
        guard let executable = Bundle.main.executablePath else {
            throw ValidationError("cannot find this executable's path to start the child process")
        }
        let childCommand = [
            executable, "torture", "disk", "--seed", "\(seed)", "--max-run-milliseconds", "\(maxRunMilliseconds)",
        ]
        let report = try DiskTorture.run(configuration: configuration, childCommand: childCommand) { done, report in
            if done % 10 == 0 || done == configuration.kills {
                StandardStreams.writeError("kill \(done)/\(configuration.kills): \(report.summary)\n")
            }
        }
        if json {
            try StandardStreams.writeJSON(report)
        } else {
            StandardStreams.write(report.summary + "\n")
        }
        if !report.isClean { throw ExitCode(1) }
    }

    private func printMeasurement() throws {
        let measurement = try DiskContainsLatency.measure(entries: entries)
        if json {
            try StandardStreams.writeJSON(measurement)
        } else {
            StandardStreams.write(
                "sweep of \(measurement.entries) entries: \(measurement.sweepMilliseconds) ms\n"
                    + "contains() during the sweep: \(measurement.duringSweep.summary)\n"
                    + "contains() with no sweep (control): \(measurement.control.summary)\n")
        }
    }
}
#endif
