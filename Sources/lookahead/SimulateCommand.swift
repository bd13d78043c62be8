import ArgumentParser

/// `lookahead simulate`: a placeholder until the simulator exists; runs the engine benchmark meanwhile.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate scrolling scenarios (not built yet: runs the engine benchmark)."
    )

    @OptionGroup var options: EngineBenchmarkOptions

    func run() async throws {
        StandardStreams.writeError(
            "lookahead simulate: the simulator is not built yet; running the engine benchmark instead\n")
        try await options.runEngineBenchmark()
    }
}
