#if Tools
import ArgumentParser

/// `lookahead bench …`: release-build benchmarks against baselines measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run release-build benchmarks against their baselines.",
        subcommands: [BenchEngineCommand.self, BenchPlannerCommand.self, BenchCoordinatorCommand.self]
    )
}
#endif
