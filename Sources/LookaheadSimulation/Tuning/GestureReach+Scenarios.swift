public import Lookahead

extension GestureReach {
    /// A model fitted on the traces of `scenarios`, each on its own screen.
    public static func fitted(on scenarios: [SimulationScenario], horizon: Duration = defaultHorizon) -> GestureReach {
        fit(
            traces: scenarios.map { scenario in
                (scenario.trace.samples.map { ($0.time, $0.offset) }, scenario.viewport.height)
            }, horizon: horizon)
    }

    /// The seeds the built-in model is fitted on: apart from the held-out
    /// ones the figures are reported on (1000 and up).
    public static let trainingSeeds: [UInt64] = Array(1...5)

    /// A model fitted on the built-in scenarios' generated traces (the
    /// vertical ones) of ``trainingSeeds``: what ``GestureReach/shipped`` holds.
    public static var fittedOnBuiltIns: GestureReach {
        fitted(on: SimulationScenario.builtInNames.filter { $0 != "carousels" }.flatMap(trainingScenarios))
    }

    /// A model fitted on one built-in scenario's traces of ``trainingSeeds``:
    /// what a single scrolling style teaches, for the robustness rows.
    public static func fitted(onBuiltIn name: String) -> GestureReach {
        fitted(on: trainingScenarios(name))
    }

    static func trainingScenarios(_ name: String) -> [SimulationScenario] {
        trainingSeeds.compactMap { SimulationScenario.builtIn(named: name, seed: $0) }
    }
}

extension GestureReach {
    /// The model as Swift code to paste: `GestureReach(...)`, its shares to
    /// four decimals, each line after the first indented by `indent`.
    public func swiftLiteral(indent: String = "") -> String {
        func shares(_ values: [Double]) -> String {
            "[" + values.map { Self.decimal($0) }.joined(separator: ", ") + "]"
        }
        let inner = indent + "        "
        let rows = tables.map { table in
            "\(inner)GestureReach.Table(\n"
                + "\(inner)    ahead: \(shares(table.ahead)),\n"
                + "\(inner)    behind: \(shares(table.behind)),\n"
                + "\(inner)    rests: \(table.rests))"
        }
        return "GestureReach(\n"
            + "\(indent)    horizon: .milliseconds(\(Int(horizon / .milliseconds(1)))),\n"
            + "\(indent)    speedBounds: [" + speedBounds.map { Self.decimal($0) }.joined(separator: ", ") + "],\n"
            + "\(indent)    tables: [\n" + rows.joined(separator: ",\n") + "\n\(indent)    ])"
    }

    /// `value` to four decimals, without trailing zeros.
    static func decimal(_ value: Double) -> String {
        let scaled = Int((value * 10_000).rounded())
        let whole = scaled / 10_000
        var fraction = String(abs(scaled % 10_000))
        while fraction.count < 4 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
