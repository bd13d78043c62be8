#if Tools
import ArgumentParser
import Foundation
import LookaheadSimulation

/// `lookahead ablate`: what each mechanism of the adaptive policy buys on
/// its own, over the built-in scenarios (``PolicyAblation``).
struct AblateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ablate",
        abstract: "Run the shipped adaptive policy with each of its mechanisms switched, over several seeds.",
        discussion: """
            Rows: the shipped settings, then the landing zone, the landings announced on generated traces, \
            deadlines, hedging, the first screen's hedging prior, the reader's pace, ahead-first at rest and \
            the learned reach each switched off; the learned reach fitted on one style's traces only (feed, \
            photos); and a deeper fixed window in its place. Cells: blank cell-frames / wasted loads, \
            summed over the seeds, with the change in blank cell-frames against the shipped row. \
            The overrides change every scenario run (--bandwidth 5000: each over a 5 Mbit/s link; \
            --trace: each scrolled as the file says).
            """
    )

    @Option(help: "The first seed (1...1000000).")
    var firstSeed: Int = 1

    @Option(help: "How many seeds, from --first-seed (1...100).")
    var seeds: Int = 6

    @Option(help: "Run only this built-in scenario (repeatable; default: all).")
    var scenario: [String] = []

    @Option(help: "Replace every scenario's trace with this CSV file (time_ms,offset per line).")
    var trace: String?

    @OptionGroup var overrides: ScenarioOverrideOptions

    func validate() throws {
        try OptionRange.check(firstSeed, "--first-seed", in: 1...1_000_000, "")
        try OptionRange.check(seeds, "--seeds", in: 1...100, "seeds")
        for name in scenario where !SimulationScenario.builtInNames.contains(name) {
            throw ValidationError(
                "--scenario: unknown scenario \(name) (one of \(SimulationScenario.builtInNames.joined(separator: ", ")))"
            )
        }
    }

    func run() throws {
        let seedList = (0..<seeds).map { UInt64(firstSeed + $0) }
        let replacement = try trace.map { path in
            do {
                return try ScrollTrace(contentsOfCSV: path)
            } catch {
                throw CommandError("\(path): \(error)")
            }
        }
        let adjust: @Sendable (inout SimulationScenario) -> Void = { [overrides] scenario in
            if let replacement { scenario.trace = replacement }
            overrides.apply(to: &scenario)
        }
        let names = scenario.isEmpty ? SimulationScenario.builtInNames : scenario
        // Checked before the runs: a trace file can still be too long for the frame rate, say.
        for name in names {
            var scenario = SimulationScenario.builtIn(named: name, seed: seedList[0])!
            adjust(&scenario)
            do {
                try scenario.validate()
            } catch {
                throw ValidationError(error.message + (trace.map { " (--trace \($0))" } ?? ""))
            }
        }
        let ablation = PolicyAblation(scenarios: names, seeds: seedList, adjust: adjust)
        let cells = ablation.run()
        print("Seeds \(firstSeed)–\(firstSeed + seeds - 1), sums: blank cell-frames / wasted loads")
        print(ablation.markdown(cells), terminator: "")
    }
}
#endif
