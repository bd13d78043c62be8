import Lookahead
import Testing

@testable import LookaheadSimulation

/// The learned reach the adaptive policy ships with, and the one `tune` fits
/// on an app's traces.
@Suite(.timeLimit(.minutes(1)))
struct GestureReachFitTests {
    @Test func theShippedModelIsTheOneFittedOnTheBuiltInTrainingSeeds() {
        // Given the model fitted on the built-in scenarios' seeds 1–5
        let fitted = GestureReach.fittedOnBuiltIns

        // Then the shipped one is it, to the four decimals it was written with
        let shipped = GestureReach.shipped
        #expect(shipped.horizon == fitted.horizon)
        #expect(shipped.speedBounds == fitted.speedBounds)
        #expect(shipped.tables.map(\.rests) == fitted.tables.map(\.rests))
        for (mine, theirs) in zip(shipped.tables, fitted.tables) {
            for (a, b) in zip(mine.ahead + mine.behind, theirs.ahead + theirs.behind) {
                #expect(abs(a - b) <= 0.000_051, "\(a) against \(b)")
            }
        }
        // And it has rests in every band to learn from
        #expect(fitted.tables.allSatisfy { $0.rests >= 100 })
        // and no seed it is reported on (1000 and up) among them
        #expect(GestureReach.trainingSeeds.allSatisfy { $0 < 1_000 })
    }

    @Test func sharesAreWrittenToFourDecimals() {
        #expect(GestureReach.decimal(1) == "1")
        #expect(GestureReach.decimal(0) == "0")
        #expect(GestureReach.decimal(0.5) == "0.5")
        #expect(GestureReach.decimal(0.0027) == "0.0027")
        #expect(GestureReach.decimal(0.123_46) == "0.1235")
        #expect(GestureReach.decimal(1_800) == "1800")
    }

    @Test func theTunedCodeNamesTheLearnedReachOnlyWhereItDiffersFromTheShippedOne() {
        var settings = AdaptiveSettings.shipped()
        #expect(!settings.swiftCode.contains("gestureReach"))
        #expect(settings.description.contains("the shipped learned reach at 30 %"))

        settings.gestureReach = nil
        #expect(settings.swiftCode.contains("gestureReach: nil"))
        #expect(!settings.swiftCode.contains("reachProbability"))

        let own = GestureReach.fitted(onBuiltIn: "fling")
        settings.gestureReach = own
        settings.reachProbability = 0.45
        #expect(settings.swiftCode.contains("gestureReach: GestureReach("))
        #expect(settings.swiftCode.contains("rests: \(own.tables[3].rests))"))
        #expect(settings.swiftCode.contains("reachProbability: 0.45"))
        #expect(settings.description.contains("its own learned reach at 45 %"))
    }

    @Test func tuneStartsFromTheAppsOwnReachWhenItDiffers() {
        let shipped = AdaptiveSettings.shipped()
        #expect(PolicyTuning.starts(shipped).count == 2)
        #expect(PolicyTuning.starts(shipped, ownReach: .shipped).count == 2)
        let own = GestureReach.fitted(onBuiltIn: "photos")
        let starts = PolicyTuning.starts(shipped, ownReach: own)
        #expect(starts.count == 3)
        #expect(starts[2].gestureReach == own)
    }
}
