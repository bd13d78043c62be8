#if Tools
import ArgumentParser

/// The `lookahead` tool. Named `LookaheadCommand` so that it does not shadow the `Lookahead` module.
@main
struct LookaheadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead",
        abstract: "Simulate, serve and benchmark Lookahead's prefetching.",
        subcommands: [
            SimulateCommand.self,
            TuneCommand.self,
            AblateCommand.self,
            BenchCommand.self,
            ServeCommand.self,
            DemoCommand.self,
            TortureCommand.self,
        ]
    )
}
#endif
