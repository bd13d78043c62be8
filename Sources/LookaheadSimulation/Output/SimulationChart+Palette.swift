// The chart's colours, one per strategy, the same in every chart.

extension SimulationChart {
    /// The colour of a strategy, the same in every panel and every chart.
    ///
    /// The built-in strategies take the Okabe–Ito colours, which stay apart
    /// for colour-blind readers; the oracle is near-black (and hatched or
    /// dashed wherever it is drawn) because it is the reference, not a
    /// contender. A name the palette does not know (a future `adaptive`) takes
    /// one of a few spare colours chosen by a stable hash of the name — not
    /// `Hasher`, which is seeded per process and would break byte-identical
    /// output.
    static func colour(for strategy: String) -> String {
        switch strategy {
        case SimulationStrategy.none.rawValue: "#D55E00"
        case SimulationStrategy.all.rawValue: "#E69F00"
        case SimulationStrategy.batch.rawValue: "#CC79A7"
        case SimulationStrategy.system.rawValue: "#0072B2"
        case SimulationStrategy.nuke.rawValue: "#56B4E9"
        case SimulationStrategy.texture.rawValue: "#009E73"
        // Lookahead's own policy stands out: the only red.
        case SimulationStrategy.adaptive.rawValue: "#E3242B"
        // The SwiftUI path: Paul Tol's wine, dark enough to stay apart from the red.
        case SimulationStrategy.swiftui.rawValue: "#882255"
        case SimulationStrategy.paged.rawValue: "#6A3D9A"
        case SimulationStrategy.pagedFixed.rawValue: "#B15928"
        case SimulationStrategy.oracle.rawValue: oracleColour
        default: spareColours[Int(stableHash(strategy) % UInt64(spareColours.count))]
        }
    }

    static let oracleColour = "#1D1D1F"

    /// Violet, brown, teal, olive: far from the built-in colours and from each other.
    static let spareColours = ["#7B3FBF", "#8C564B", "#17A2B8", "#9E9D24"]

    static func isOracle(_ strategy: String) -> Bool {
        strategy == SimulationStrategy.oracle.rawValue
    }

    /// FNV-1a over the name's UTF-8 bytes.
    private static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
