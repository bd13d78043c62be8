public import Lookahead

/// A window UIKit's prefetching might have. Apple does not document its
/// size (see `SystemPrefetchPolicy`), so the `system` strategy's figures are
/// reported against a bracket of plausible ones, each run as `system` is.
public enum UIKitWindow: String, CaseIterable, Sendable, Codable {
    /// 6 rows of a grid, 10 of a list: the `system` strategy's model.
    case rows
    /// One screen ahead in the direction of travel.
    case oneScreen = "one-screen"
    /// Two screens ahead.
    case twoScreens = "two-screens"
    /// One item ahead, as a full-screen paging collection view was observed to prefetch.
    case oneItem = "one-item"

    /// The window as a prefetch policy.
    public var policy: PrefetchPolicy {
        switch self {
        case .rows: .system
        case .oneScreen: .screens(leading: 1, trailing: 0)
        case .twoScreens: .screens(leading: 2, trailing: 0)
        case .oneItem: .custom(SystemPrefetchPolicy(items: 1))
        }
    }
}

/// `adaptive` against every ``UIKitWindow`` on one scenario: how many times
/// fewer blank cell-frames it leaves than UIKit would, as a range. And the
/// `swiftui` strategy with its rows appearing at several distances ahead of
/// visibility, the like assumption of the SwiftUI path.
public struct UIKitBracket: Sendable, Codable, Equatable {
    public struct Row: Sendable, Codable, Equatable {
        public var window: UIKitWindow
        public var blankCellFrames: Int
        public var wastedLoads: Int
    }

    /// `swiftui` with rows appearing `screens` beyond the viewport.
    public struct SwiftUIRow: Sendable, Codable, Equatable {
        public var screens: Double
        public var blankCellFrames: Int
        public var wastedLoads: Int
    }

    /// How far ahead of visibility a lazy stack's rows may appear, in screens.
    public static let swiftUIAppearingScreens = [0, 0.5, 1]

    public var scenario: String
    public var rows: [Row]
    public var swiftUI: [SwiftUIRow]
    public var adaptiveBlankCellFrames: Int
    public var lowerBound: Int

    /// Runs `system` with each window, and `adaptive`, on `scenario`
    /// (lists and grids; a feed of carousels has no UIKit window to bracket).
    public init?(scenario: SimulationScenario) {
        if case .carousels = scenario.layout { return nil }
        let simulator = Simulator(scenario: scenario)
        self.scenario = scenario.name
        rows = UIKitWindow.allCases.map { window in
            let result = simulator.run(system: window)
            return Row(window: window, blankCellFrames: result.blankCellFrames, wastedLoads: result.wastedLoads)
        }
        swiftUI = Self.swiftUIAppearingScreens.map { screens in
            let result = simulator.run(swiftUIAppearingScreens: screens)
            return SwiftUIRow(
                screens: screens, blankCellFrames: result.blankCellFrames, wastedLoads: result.wastedLoads)
        }
        adaptiveBlankCellFrames = simulator.run(.adaptive).blankCellFrames
        lowerBound = LowerBound(scenario: scenario, allowsHedging: true).blankCellFrames
    }

    /// UIKit's blank cell-frames over `adaptive`'s, the least and the most over the bracket.
    public var advantage: ClosedRange<Double> {
        let ratios = rows.map { Double($0.blankCellFrames) / Double(max(1, adaptiveBlankCellFrames)) }
        return (ratios.min() ?? 1)...(ratios.max() ?? 1)
    }
}
