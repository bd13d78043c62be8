import Testing

@testable import LookaheadTorture

/// The coordinator soak in short: what `lookahead torture coordinator` runs
/// for a million frames, here for a few thousand on two seeds.
@Suite(.timeLimit(.minutes(5)))
@MainActor
struct CoordinatorSoakTests {
    @Test(arguments: [UInt64(1), 0x50A_C0DE])
    func aShortSoakFindsNoBlankCellAndBoundedTables(seed: UInt64) async {
        // Changes about as rare as an app's, identity checked on one frame in
        // eight: the identity walk below changes the data and checks every frame.
        let report = await CoordinatorSoak.run(frames: 6_000, seed: seed, changeEvery: 500, identityCheckEvery: 8)
        #expect(report.blankCellsWithoutRequest == 0, "seed \(seed): \(report.firstBlankCells)")
        #expect(report.framesOverLimit == 0, "seed \(seed): peak share of the limit \(report.peakShareOfLimit)")
        #expect(report.cellsLeftBlank == 0, "seed \(seed): cells on screen never filled")
        // The run exercised what it is for: kept cells shown again, loads landing, the list changing.
        #expect(report.cellsShownAgain > 100, "seed \(seed)")
        #expect(report.loadsLanded > 1_000, "seed \(seed)")
        #expect(report.reloads + report.batchUpdates + report.memoryWarnings > 0, "seed \(seed)")
        #expect(report.identityViolations == 0, "seed \(seed): \(report.firstIdentityViolations)")
    }

    /// Identity, not index paths: a data change on every frame — reloads,
    /// pages appended, inserts, deletes and moves near the screen, items
    /// reloaded, several at once, told before or after the view applies
    /// them — while the list scrolls with cell prefetching on.
    @Test(arguments: [UInt64(0x1D_0001), 0x1D_0002, 0x1D_0003])
    func whateverTheDataDoesEachCellShowsItsOwnItem(seed: UInt64) async {
        let report = await CoordinatorSoak.run(frames: 1_000, seed: seed, changeEvery: 1)
        #expect(report.wrongValues == 0, "seed \(seed): \(report.firstIdentityViolations)")
        #expect(report.blankCellsDemoted == 0, "seed \(seed): \(report.firstIdentityViolations)")
        #expect(report.visibleLoadsRestarted == 0, "seed \(seed): \(report.firstIdentityViolations)")
        #expect(report.untrackedRequests == 0, "seed \(seed): \(report.firstIdentityViolations)")
        #expect(report.blankCellsWithoutRequest == 0, "seed \(seed): \(report.firstBlankCells)")
        #expect(report.cellsLeftBlank == 0, "seed \(seed): cells on screen never filled")
        // The walk did what it is for: every kind of change, told both ways.
        #expect(report.batchUpdates + report.reloads > 700, "seed \(seed)")
        for kind in ["insert", "delete", "move", "item reloaded", "page appended", "several at once"] {
            #expect(report.updatesByKind[kind, default: 0] > 20, "seed \(seed): \(kind)")
        }
        #expect(report.updatesToldAfter > 100, "seed \(seed)")
        #expect(report.reloads > 50, "seed \(seed)")
    }
}
