import Lookahead

/// What `lookahead tune` found: its `--json` form, and the table.
public struct TuningReport: Sendable, Codable {
    /// One policy's scores: on the traces the search saw, and on those it did not.
    public struct Row: Sendable, Codable, Hashable {
        public var name: String
        public var training: PolicyTuner.Score
        public var heldOut: PolicyTuner.Score
    }

    /// The best setting of every combination, scored on the held-out traces.
    public struct Exhaustive: Sendable, Codable, Hashable {
        /// The best within the waste budget.
        public var best: PolicyTuner.Candidate
        /// The fewest blank cell-frames of any setting wasting no more than the
        /// recommendation did on the held-out traces: what it is measured against.
        public var bestAtRecommendedWaste: PolicyTuner.Candidate?
        public var evaluated: Int
    }

    /// The fixed policies, the shipped adaptive one, then the recommendation (`recommended`).
    public var rows: [Row]
    /// The adaptive settings the search found best.
    public var recommended: AdaptiveSettings
    /// The waste budget the search kept to.
    public var maxWasteRatio: Double
    /// Settings scored by the search.
    public var evaluated: Int
    /// The trade-off between blank cell-frames and waste among the settings scored.
    public var paretoFront: [PolicyTuner.Candidate]
    /// A fixed policy that did better than every adaptive setting within the
    /// budget on the training traces, if one did: then keep it (see ``text()``).
    public var betterBaseline: String? {
        let tuner = PolicyTuner(maxWasteRatio: maxWasteRatio)
        guard let tuned = rows.first(where: { $0.name == PolicyTuning.recommendedName }) else { return nil }
        let fixed = rows.filter { PolicyTuning.fixedStrategies.map(\.rawValue).contains($0.name) }
        return fixed.filter { tuner.isBetter($0.training, than: tuned.training) }.min {
            tuner.isBetter($0.training, than: $1.training)
        }?.name
    }

    /// The lower bound, summed over the training traces.
    public var lowerBoundTraining: Int
    /// The lower bound, summed over the held-out traces.
    public var lowerBoundHeldOut: Int
    /// The exhaustive reference on the held-out traces, if it ran.
    public var exhaustive: Exhaustive?
    /// Every baseline's and the recommendation's results on each held-out
    /// trace, with its lower bound: what the chart and the HTML report show.
    public var heldOutResults: SimulationReport
    /// The traces' bandwidth cap, in bits per second (`nil`: none): whether
    /// the recommended fetcher hedges prefetches due soon at once
    /// (``AdaptiveSettings/swiftCode(over:)``).
    public var linkBitsPerSecond: Double?
    /// Whether the traces scroll a feed of carousels: the pasted code then
    /// makes its nested coordinator's windows from the recommended one
    /// (``AdaptiveSettings/swiftCode(over:nested:)``).
    public var isCarouselFeed = false

    /// On the held-out traces: (best fixed − recommended) / (best fixed − bound),
    /// the share of the gap to the bound the recommendation closes; `nil`
    /// when the best fixed policy is at the bound already.
    public var heldOutGapClosure: Double? {
        let fixed = rows.filter { PolicyTuning.fixedStrategies.map(\.rawValue).contains($0.name) }
        guard let best = fixed.map(\.heldOut.blankCellFrames).min(),
            let recommended = rows.first(where: { $0.name == PolicyTuning.recommendedName })?.heldOut.blankCellFrames,
            best > lowerBoundHeldOut
        else { return nil }
        return Double(best - recommended) / Double(best - lowerBoundHeldOut)
    }

    /// The report as text: the table, the gap closure, the trade-off and the code to paste.
    public func text() -> String {
        func percent(_ ratio: Double) -> String { "\(Double(Int((ratio * 1_000).rounded())) / 10)%" }
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
        func left(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        var lines = [
            "policy           training: blank   waste    held out: blank   waste"
        ]
        for row in rows {
            lines.append(
                left(row.name, 16)
                    + pad("\(row.training.blankCellFrames)", 16) + pad(percent(row.training.wasteRatio), 8)
                    + pad("\(row.heldOut.blankCellFrames)", 18) + pad(percent(row.heldOut.wasteRatio), 8))
        }
        lines.append(
            left("lower bound", 16) + pad("\(lowerBoundTraining)", 16)
                + pad("", 8) + pad("\(lowerBoundHeldOut)", 18))
        lines.append("")
        lines.append(
            "recommended (\(evaluated) settings scored, waste at most \(percent(maxWasteRatio))): \(recommended)")
        if let closure = heldOutGapClosure {
            lines.append(
                "held out: the recommendation closes \(percent(closure)) of the gap from the best fixed policy to the bound"
            )
        }
        if let exhaustive, let recommended = rows.first(where: { $0.name == PolicyTuning.recommendedName }) {
            lines.append(
                "exhaustive search on the held-out traces (\(exhaustive.evaluated) settings): within the budget, "
                    + "\(exhaustive.best.score.blankCellFrames) blank cell-frames at "
                    + "\(percent(exhaustive.best.score.wasteRatio)) waste (\(exhaustive.best.settings))")
            if let comparable = exhaustive.bestAtRecommendedWaste {
                let best = comparable.score.blankCellFrames
                let ratio = Double(recommended.heldOut.blankCellFrames) / Double(max(best, 1))
                lines.append(
                    "  at no more waste than the recommendation's \(percent(recommended.heldOut.wasteRatio)): "
                        + "\(best) (\(comparable.settings)); the recommendation is "
                        + "\(Double(Int((ratio * 100).rounded())) / 100)× that")
            }
        }
        lines.append("")
        lines.append("trade-off (blank cell-frames on the training traces against waste):")
        for candidate in paretoFront.prefix(8) {
            lines.append(
                "  \(pad("\(candidate.score.blankCellFrames)", 8))  \(pad(percent(candidate.score.wasteRatio), 6))  "
                    + "\(candidate.settings)")
        }
        lines.append("")
        if let baseline = betterBaseline, let strategy = SimulationStrategy(rawValue: baseline),
            let policy = strategy.prefetchPolicy
        {
            lines.append(
                "No adaptive setting beat \(baseline) within the budget on these traces: keep it. Paste into your app:")
            lines.append("let prefetchPolicy: PrefetchPolicy = \(Self.swiftLiteral(policy))")
            if strategy.prefetchesThroughPrefetcher {
                lines.append("let prefetcher = Prefetcher(fetcher: fetcher)  // 2 at a time, at .low priority")
            }
        } else {
            lines.append("Paste into your app:")
            lines.append(
                recommended.swiftCode(
                    over: linkBitsPerSecond.map { .bitsPerSecond($0) } ?? .unlimited, nested: isCarouselFeed))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fixed policy as Swift source.
    static func swiftLiteral(_ policy: PrefetchPolicy) -> String {
        switch policy.kind {
        case .system: ".system"
        case .screens(let leading, let trailing): ".screens(leading: \(leading), trailing: \(trailing))"
        default: "\(policy.kind)"
        }
    }
}
