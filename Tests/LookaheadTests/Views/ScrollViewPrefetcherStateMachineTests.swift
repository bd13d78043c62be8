import Testing

@testable import Lookahead

// The window's pure state machine on its own, nested in the prefetcher's suite.

extension ScrollViewPrefetcherTests {
    /// The pure state machine on its own: no clock, no tasks.
    @Suite(.timeLimit(.minutes(1)))
    struct StateMachineTests {
        @Test func nothingIsPrefetchedBeforeARowAppears() {
            // Given a fresh machine
            var machine = ScrollViewPrefetcherStateMachine(itemCount: 50, windowSize: 5)

            // When it settles
            let update = machine.settle()

            // Then nothing is asked for
            #expect(update.isEmpty)
        }

        @Test func followsTheVisibleRangeInBothDirections() {
            // Given rows 10–14 visible, scrolled down to there
            var machine = ScrollViewPrefetcherStateMachine(itemCount: 50, windowSize: 5)
            for index in 9...13 { machine.appeared(index) }
            _ = machine.settle()
            machine.appeared(14)
            machine.disappeared(9)

            // When it settles
            let down = machine.settle()

            // Then it prefetches below; the item that appeared is consumed
            #expect(down == .init(prefetch: [19]))
            #expect(machine.window == [15, 16, 17, 18, 19])

            // When row 9 comes back and 14 goes
            machine.appeared(9)
            machine.disappeared(14)
            let up = machine.settle()

            // Then the window flips above the visible range
            #expect(machine.direction == .backward)
            #expect(up == .init(prefetch: [8, 7, 6, 5, 4], cancel: [15, 16, 17, 18, 19]))
            machine.checkInvariants()
        }

        @Test func ambiguousMovesKeepTheDirection() {
            // Given a machine that has seen a scroll up
            var machine = ScrollViewPrefetcherStateMachine(itemCount: 50, windowSize: 2)
            for index in 20...24 { machine.appeared(index) }
            _ = machine.settle()
            machine.appeared(19)
            machine.disappeared(24)
            _ = machine.settle()
            #expect(machine.direction == .backward)

            // When the visible range grows at both ends (a rotation), then shrinks at both
            machine.appeared(18)
            machine.appeared(24)
            let grown = machine.settle()
            machine.disappeared(18)
            machine.disappeared(24)
            let shrunk = machine.settle()

            // Then the direction is kept and the window follows the top of the range
            #expect(machine.direction == .backward)
            #expect(grown == .init(prefetch: [16]))
            #expect(shrunk == .init(prefetch: [18], cancel: [16]))
            #expect(machine.window == [18, 17])
        }

        @Test func aJumpKeepsTheWindowUntilNewRowsAppear() {
            // Given rows 0–4 visible and 5–7 prefetched
            var machine = ScrollViewPrefetcherStateMachine(itemCount: 100, windowSize: 3)
            for index in 0...4 { machine.appeared(index) }
            _ = machine.settle()

            // When every row disappears and the machine settles in between
            for index in 0...4 { machine.disappeared(index) }
            let empty = machine.settle()

            // Then nothing changes: the window stays anchored where the list was
            #expect(empty.isEmpty)
            #expect(machine.window == [5, 6, 7])

            // When rows far below appear
            for index in 60...64 { machine.appeared(index) }
            let jumped = machine.settle()

            // Then the old window is cancelled and the one after the new rows prefetched
            #expect(jumped == .init(prefetch: [65, 66, 67], cancel: [5, 6, 7]))
            #expect(machine.direction == .forward)
        }

        @Test func shrinkingTheListForgetsIndicesPastTheEnd() {
            // Given rows 0–4 visible and 5–9 prefetched in a list of 100
            var machine = ScrollViewPrefetcherStateMachine(itemCount: 100, windowSize: 5)
            for index in 0...4 { machine.appeared(index) }
            _ = machine.settle()

            // When the list shrinks to 7 items
            let shrank = machine.update(itemCount: 7)
            let shrankAgain = machine.update(itemCount: 7)
            let update = machine.settle()

            // Then the dropped items are neither cancelled nor kept
            #expect(shrank && !shrankAgain)
            #expect(update.isEmpty)
            #expect(machine.window == [5, 6])
            let appearedPastTheEnd = machine.appeared(7)
            #expect(!appearedPastTheEnd)
            machine.checkInvariants()
        }

        @Test func badInputChangesNothing() {
            // Given a machine with row 3 visible
            var machine = ScrollViewPrefetcherStateMachine(itemCount: 10, windowSize: 2)
            machine.appeared(3)

            // When it gets out-of-range, repeated and unknown events
            let changes = [
                machine.appeared(-1), machine.appeared(10), machine.appeared(3),
                machine.disappeared(4), machine.disappeared(-7),
            ]

            // Then none of them counts as a change
            #expect(changes == [false, false, false, false, false])
            #expect(machine.visibleIndices == [3])
        }

        @Test func randomScrollingKeepsTheInvariants() {
            // Given a seeded random walk of a ten-row viewport over 200 items
            var generator = SeededRandom(seed: 0x5EED_0003)
            var machine = ScrollViewPrefetcherStateMachine(itemCount: 200, windowSize: 8)
            var top = 0
            var requested: Set<Int> = []
            for index in 0..<10 { machine.appeared(index) }

            for step in 0..<2_000 {
                // When the viewport moves by a random amount and the machine sometimes settles
                let move = Int(generator.next() % 7) - 3
                let newTop = min(max(top + move, 0), 190)
                for index in top..<(top + 10) where !(newTop..<(newTop + 10)).contains(index) {
                    machine.disappeared(index)
                }
                for index in newTop..<(newTop + 10) where machine.appeared(index) {
                    requested.remove(index)  // consumed
                }
                top = newTop
                guard generator.next() % 3 == 0 else { continue }
                let update = machine.settle()

                // Then prefetches are new, cancels were requested, and the window hugs the visible range
                machine.checkInvariants()
                #expect(requested.isDisjoint(with: update.prefetch), "step \(step), seed 0x5EED_0003")
                #expect(Set(update.cancel).isSubset(of: requested), "step \(step), seed 0x5EED_0003")
                requested.subtract(update.cancel)
                requested.formUnion(update.prefetch)
                #expect(requested == Set(machine.window), "step \(step), seed 0x5EED_0003")
                let expected =
                    machine.direction == .forward
                    ? Array((top + 10)..<min(top + 18, 200)) : Array((max(top - 8, 0)..<top).reversed())
                #expect(machine.window == expected, "step \(step), seed 0x5EED_0003")
            }
        }
    }
}
