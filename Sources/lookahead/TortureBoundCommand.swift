#if Tools
import ArgumentParser
import Foundation
import LookaheadSimulation

/// `lookahead torture bound`: a randomized search for runs under the lower bound.
///
/// Exits with status 1 when a strategy, the oracle or a list schedule left
/// fewer blank cell-frames than the bound.
struct TortureBoundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bound",
        abstract: "Search for runs under the simulator's lower bound (the bound fuzzer).",
        discussion: """
            Generates short scenarios from the seed — lists and grids, traces of every style \
            (reading, photos, flinging, skimming with reversals, jumping), log-normal latencies \
            with mild to heavy tails, failing attempts, capped or unlimited links, 1 to 8 slots — \
            and runs every per-item strategy and the oracle on each against the bound. Every tenth \
            instance also brings a small one (four or five rows) whose every list schedule is run. \
            Prints each violation with the instance's seed and description.
            """
    )

    @Option(help: "Scenarios to generate (1…1000000).")
    var instances: Int = 200

    @Option(help: "The seed of the instances.")
    var seed: UInt64 = 1

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (1...1_000_000).contains(instances) else {
            throw ValidationError("instances must be between 1 and 1000000, got \(instances)")
        }
    }

    func run() throws {
        StandardStreams.writeError("torture bound: \(instances) instances, seed \(seed)\n")
        let progress = ProgressReporter(
            total: instances, enabled: instances >= 50, label: ("torture bound", "instances"))
        let report = BoundFuzzer.run(instances: instances, seed: seed) { progress.update($0) }
        if json {
            try StandardStreams.writeJSON(report, pretty: true)
        } else {
            var lines = [
                "seed \(report.seed): \(report.instances) instances (\(report.refused) refused), "
                    + "\(report.smallInstances) small ones by brute force, \(report.runsChecked) runs checked",
                "violations: \(report.violations.count)",
                String(
                    format: "oracle / bound where the bound is above zero: %d / %d (%.3f)",
                    report.oracleBlankCellFrames,
                    report.boundBlankCellFrames,
                    Double(report.oracleBlankCellFrames) / Double(max(1, report.boundBlankCellFrames))),
                String(format: "%.1f s", report.seconds),
            ]
            for violation in report.violations.prefix(20) {
                lines.append(
                    "  \(violation.isSmall ? "small " : "")instance \(violation.instanceSeed): \(violation.strategy) "
                        + "\(violation.blankCellFrames) < bound \(violation.bound) (\(violation.instance))")
            }
            StandardStreams.write(lines.joined(separator: "\n") + "\n")
        }
        if !report.violations.isEmpty { throw ExitCode(1) }
    }
}
#endif
