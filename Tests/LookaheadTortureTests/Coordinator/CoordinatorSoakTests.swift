import Testing

@testable import LookaheadTorture

/// The coordinator soak in short: what `lookahead torture coordinator` runs
/// for a million frames, here for a few thousand on two seeds.
@Suite(.timeLimit(.minutes(3)))
@MainActor
struct CoordinatorSoakTests {
    @Test(arguments: [UInt64(1), 0x50A_C0DE])
    func aShortSoakFindsNoBlankCellAndBoundedTables(seed: UInt64) async {
        let report = await CoordinatorSoak.run(frames: 6_000, seed: seed)
        #expect(report.blankCellsWithoutRequest == 0, "seed \(seed): \(report.firstBlankCells)")
        #expect(report.framesOverLimit == 0, "seed \(seed): peak ratio \(report.peakRatio)")
        #expect(report.cellsLeftBlank == 0, "seed \(seed): cells on screen never filled")
        // The run exercised what it is for: kept cells shown again, loads landing, the list changing.
        #expect(report.cellsShownAgain > 100, "seed \(seed)")
        #expect(report.loadsLanded > 1_000, "seed \(seed)")
        #expect(report.reloads + report.batchUpdates + report.memoryWarnings > 0, "seed \(seed)")
    }
}
