import Testing

@testable import LookaheadSimulation

@Suite("Policy tuner", .timeLimit(.minutes(1)))
struct PolicyTunerTests {
    let start = AdaptiveSettings.shipped()

    /// A made-up surface: blank cell-frames grow with the distance from a best
    /// setting on each knob; waste grows with the resting window and the reach.
    func surface(_ settings: AdaptiveSettings) -> PolicyTuner.Score {
        var blank = abs(settings.marginMilliseconds - 150) / 10
        blank += Int(abs(settings.restingLeadingScreens - 1) * 40)
        blank += Int(abs(settings.restingTrailingScreens - 0.75) * 40)
        blank += settings.restingFloorScreens == 1.5 ? 0 : 2
        blank += Int(abs(settings.maxReachScreens - 6) * 5)
        blank += settings.yieldsToLandingZone ? 0 : 7
        blank += abs(settings.maxConcurrentLoads - 8) * 3
        blank += settings.hedgesSlowLoads ? 0 : 4
        blank += settings.gestureReach == nil ? 3 : 0
        blank += Int(abs(settings.reachProbability - 0.45) * 20)
        let wasted = Int((settings.restingLeadingScreens + settings.restingTrailingScreens) * 10)
        return PolicyTuner.Score(
            blankCellFrames: blank, visibleCellFrames: 1_000, completedLoads: 100, wastedLoads: wasted)
    }

    @Test("coordinate descent finds the best of a separable surface, scoring each setting once")
    func findsTheBest() {
        var calls: [AdaptiveSettings] = []
        let search = PolicyTuner(maxWasteRatio: 1).search(from: start) { settings in
            calls.append(settings)
            return surface(settings)
        }
        #expect(search.best.settings.marginMilliseconds == 150)
        #expect(search.best.settings.restingLeadingScreens == 1)
        #expect(search.best.settings.restingTrailingScreens == 0.75)
        #expect(search.best.settings.restingFloorScreens == 1.5)
        #expect(search.best.settings.maxReachScreens == 6)
        #expect(search.best.settings.yieldsToLandingZone)
        #expect(search.best.settings.maxConcurrentLoads == 8)
        #expect(search.best.settings.hedgesSlowLoads)
        #expect(search.best.settings.gestureReach != nil)
        #expect(search.best.settings.reachProbability == 0.45)
        #expect(search.best.score.blankCellFrames == 0)
        #expect(Set(calls).count == calls.count, "a setting was scored twice")
        #expect(search.evaluated.count == calls.count)
        // And the exhaustive search agrees
        let exhaustive = PolicyTuner(maxWasteRatio: 1).exhaustive(from: start, evaluate: surface)
        #expect(exhaustive.best.settings == search.best.settings)
        #expect(exhaustive.evaluated.count == PolicyTuner.axes.reduce(1) { $0 * $1.variants(start).count })
    }

    @Test("a setting over the waste budget is not recommended, however few blanks it leaves")
    func respectsTheBudget() {
        // Waste ratio of the unconstrained best (1 ahead, 0.75 behind) is 17.5 %; allow 10 %.
        let search = PolicyTuner(maxWasteRatio: 0.10).search(from: start, evaluate: surface)
        #expect(search.best.score.wasteRatio <= 0.10)
        #expect(search.best.settings.restingLeadingScreens + search.best.settings.restingTrailingScreens <= 1)
        // When nothing fits, the least wasteful is chosen.
        let none = PolicyTuner(maxWasteRatio: 0).search(from: start, evaluate: surface)
        #expect(none.best.settings.restingLeadingScreens == 0.5)
        #expect(none.best.settings.restingTrailingScreens == 0.25)
    }

    @Test("the Pareto front keeps what nothing beats on both blanks and waste, fewest blanks first")
    func paretoFront() {
        func candidate(_ blank: Int, _ wasted: Int, margin: Int) -> PolicyTuner.Candidate {
            var settings = start
            settings.marginMilliseconds = margin
            return .init(
                settings: settings,
                score: .init(blankCellFrames: blank, visibleCellFrames: 100, completedLoads: 100, wastedLoads: wasted))
        }
        let candidates = [
            candidate(10, 50, margin: 1), candidate(20, 20, margin: 2), candidate(15, 60, margin: 3),
            candidate(30, 5, margin: 4), candidate(20, 25, margin: 5), candidate(10, 50, margin: 6),
        ]
        let front = PolicyTuner.paretoFront(of: candidates).map(\.settings.marginMilliseconds)
        #expect(front == [1, 2, 4])
    }

    @Test("the pasted code names the settings and builds")
    func swiftCode() {
        var settings = start
        settings.restingLeadingScreens = 1
        let code = settings.swiftCode
        #expect(code.contains("restingLeadingScreens: 1.0,"))
        #expect(code.contains("maxConcurrentLoads: 6"))
        #expect(code.contains("margin: .milliseconds(300)"))
        settings.hedgesSlowLoads = false
        #expect(settings.swiftCode.contains("hedging: .off"))
        settings.hedgesSlowLoads = true
        #expect(settings.swiftCode.contains("hedging: .afterP90"))
        // Over a capped link, prefetches due soon are not hedged at once, as the simulator ran them
        settings.hedgesDuePrefetches = true
        #expect(!settings.swiftCode.contains("hedgesDueSoonAtOnce"))
        #expect(
            settings.swiftCode(over: .bitsPerSecond(20_000_000)).contains("hedgesDueSoonAtOnce: false, load: load)"))
        #expect(settings.description.contains("hedges slow visible loads"))
        // The floor is always named: without it the policy's default paces the window
        settings.restingFloorScreens = nil
        #expect(settings.swiftCode.contains("restingFloorScreens: nil))"))
        #expect(settings.description.contains("1.5 behind (fixed)"))
        settings.restingFloorScreens = 0.5
        #expect(settings.swiftCode.contains("restingFloorScreens: 0.5))"))
        #expect(settings.description.contains("(paced, at least 0.5)"))
        // A floor at or above the window ahead (1 screen here) leaves nothing to pace: the fixed window
        settings.restingFloorScreens = 1
        #expect(settings.pacedFloor == nil)
        #expect(settings.swiftCode.contains("restingFloorScreens: nil))"))
        #expect(settings.description.contains("(fixed)"))
        // On a feed of carousels, the coordinator's two windows are made from the list window, as they were scored
        let nested = settings.swiftCode(over: .unlimited, nested: true)
        #expect(nested.contains("let listWindow = AdaptivePrefetchPolicy(\n    margin: .milliseconds(300),"))
        #expect(nested.contains("policy: .adaptiveRows(for: listWindow),"))
        #expect(nested.contains("carouselPolicy: .adaptiveCarousel(for: listWindow),"))
        #expect(nested.contains("maxConcurrentLoads: 6"))
        #expect(!nested.contains("let prefetchPolicy"))
    }

    @Test("hedging is an axis of the search, off and on, and the exhaustive search covers both")
    func hedgingAxis() {
        let axis = PolicyTuner.axes.first { $0.name == "hedging" }
        #expect(axis?.variants(start).map(\.hedgesSlowLoads) == [false, true])
        let exhaustive = PolicyTuner(maxWasteRatio: 1).exhaustive(from: start, evaluate: surface)
        #expect(Set(exhaustive.evaluated.map(\.settings.hedgesSlowLoads)) == [false, true])
    }
}

@Suite("Policy tuning over the simulator", .timeLimit(.minutes(2)))
struct PolicyTuningTests {
    @Test("on a feed of carousels the pasted code makes the nested coordinator's windows from the recommended one")
    func tuningACarouselFeed() throws {
        let scenarios = (0..<3).compactMap {
            SimulationScenario.builtIn(named: "carousels", seed: 2 + UInt64($0), duration: .seconds(2))
        }
        let report = PolicyTuning(training: Array(scenarios.prefix(2)), heldOut: [scenarios[2]]).run()

        #expect(report.isCarouselFeed)
        let text = report.text()
        if report.betterBaseline == nil {
            #expect(text.contains("NestedPrefetchCoordinator("))
            #expect(text.contains("policy: .adaptiveRows(for: listWindow)"))
        }
    }

    @Test("the recommendation keeps to the budget on the training traces and is scored on the held-out ones")
    func tuningRun() throws {
        let seed: UInt64 = 2
        let scenarios = (0..<3).compactMap {
            SimulationScenario.builtIn(named: "fling", seed: seed + UInt64($0), duration: .seconds(4))
        }
        let tuning = PolicyTuning(training: Array(scenarios.prefix(2)), heldOut: [scenarios[2]])
        let report = tuning.run()

        #expect(report.rows.map(\.name) == ["system", "nuke", "texture", "adaptive", "recommended"], "seed \(seed)")
        let recommended = try #require(report.rows.last)
        #expect(recommended.training.wasteRatio <= report.maxWasteRatio, "seed \(seed)")
        // The held-out score is the recommendation's own run on the held-out trace
        let heldOut = Simulator(scenario: scenarios[2]).run(adaptive: report.recommended)
        #expect(recommended.heldOut == PolicyTuner.Score(heldOut), "seed \(seed)")
        // No setting the search scored beats the recommendation within the budget
        let tuner = PolicyTuner(maxWasteRatio: report.maxWasteRatio)
        let shipped = try #require(report.rows.first { $0.name == "adaptive" })
        #expect(!tuner.isBetter(shipped.training, than: recommended.training), "seed \(seed)")
        #expect(report.heldOutResults.scenarios.count == 1)
        #expect(report.heldOutResults.scenarios[0].strategies.map(\.name).last == "recommended")
        #expect(report.lowerBoundHeldOut <= recommended.heldOut.blankCellFrames, "seed \(seed)")
        #expect(report.text().contains("Paste into your app:"))
        #expect(!report.isCarouselFeed && !report.text().contains("NestedPrefetchCoordinator"))
        // The default budget: the best baseline's waste, plus its noise
        let best = try #require(
            report.rows.dropLast().min {
                ($0.training.blankCellFrames, $0.training.wastedLoads) < (
                    $1.training.blankCellFrames, $1.training.wastedLoads
                )
            })
        #expect(report.maxWasteRatio == PolicyTuning.defaultBudget(after: best.training), "seed \(seed)")
    }

    @Test("the default budget allows the baseline's waste plus two standard errors, less with more loads")
    func defaultBudget() {
        func score(completed: Int, wasted: Int) -> PolicyTuner.Score {
            PolicyTuner.Score(blankCellFrames: 0, visibleCellFrames: 1, completedLoads: completed, wastedLoads: wasted)
        }
        let few = PolicyTuning.defaultBudget(after: score(completed: 3_000, wasted: 150))
        // 5% of 3,000: a standard error of sqrt(0.05 · 0.95 / 3,000) = 0.398%
        #expect(abs(few - (0.05 + 2 * 0.003_979)) < 1e-5, "\(few)")
        let many = PolicyTuning.defaultBudget(after: score(completed: 300_000, wasted: 15_000))
        #expect(many > 0.05 && many < few, "\(many)")
        #expect(PolicyTuning.defaultBudget(after: score(completed: 0, wasted: 0)) == 0)
        #expect(PolicyTuning.defaultBudget(after: score(completed: 1, wasted: 1)) == 1)
    }
}

@Suite("Tuning report", .timeLimit(.minutes(1)))
struct TuningReportTests {
    func row(_ name: String, blank: Int, wasted: Int) -> TuningReport.Row {
        let score = PolicyTuner.Score(
            blankCellFrames: blank, visibleCellFrames: 1_000, completedLoads: 100, wastedLoads: wasted)
        return TuningReport.Row(name: name, training: score, heldOut: score)
    }

    func report(_ rows: [TuningReport.Row], budget: Double) -> TuningReport {
        TuningReport(
            rows: rows, recommended: .shipped(), maxWasteRatio: budget, evaluated: 1, paretoFront: [],
            lowerBoundTraining: 0, lowerBoundHeldOut: 0, exhaustive: nil, heldOutResults: SimulationReport(seed: 1))
    }

    @Test("a fixed policy that beats every adaptive setting within the budget is what it says to keep")
    func keepsABetterBaseline() {
        let rows = [
            row("system", blank: 100, wasted: 10), row("nuke", blank: 120, wasted: 0),
            row("texture", blank: 90, wasted: 40), row("adaptive", blank: 80, wasted: 45),
            row("recommended", blank: 300, wasted: 0),
        ]
        let keep = report(rows, budget: 0.10)
        #expect(keep.betterBaseline == "system")
        #expect(keep.text().contains("let prefetchPolicy: PrefetchPolicy = .system"))
        #expect(!keep.text().contains("AdaptivePrefetchPolicy("))
        // When the search's settings win, they are what to paste
        var won = rows
        won[4] = row("recommended", blank: 95, wasted: 5)
        #expect(report(won, budget: 0.10).betterBaseline == nil)
        #expect(report(won, budget: 0.10).text().contains("AdaptivePrefetchPolicy("))
    }
}
