import Testing

@testable import Lookahead

// The prefetcher's default adaptive window: the pure machine with explicit times.

extension ScrollViewPrefetcherTests {
    /// The adaptive window, the prefetcher's default: the pure machine with explicit times.
    @Suite(.timeLimit(.minutes(1)))
    struct AdaptiveWindowTests {
        static let step = Duration.milliseconds(50)

        /// A ten-row viewport at `top`, moved by `rows` per step, settled at each step.
        struct Scroller {
            var machine: ScrollViewPrefetcherStateMachine
            var top: Int
            var time = Duration.zero
            var updates: [ScrollViewPrefetcherStateMachine.Update] = []

            init(itemCount: Int = 10_000, top: Int = 100, policy: WindowSizing = .adaptive()) {
                machine = ScrollViewPrefetcherStateMachine(itemCount: itemCount, sizing: policy)
                self.top = top
                for index in top..<(top + 10) { machine.appeared(index) }
                updates.append(machine.settle(at: time))
            }

            mutating func move(by rows: Int, steps: Int = 1) {
                for _ in 0..<steps {
                    let newTop = top + rows
                    for index in top..<(top + 10) where !(newTop..<(newTop + 10)).contains(index) {
                        machine.disappeared(index)
                    }
                    for index in newTop..<(newTop + 10) { machine.appeared(index) }
                    top = newTop
                    time += AdaptiveWindowTests.step
                    updates.append(machine.settle(at: time))
                    machine.checkInvariants()
                }
            }

            /// How far past the visible rows the window reaches, forward.
            var reachAhead: Int { (machine.window.max() ?? (top + 9)) - (top + 9) }
        }

        @Test func theDefaultPolicyIsAdaptive() {
            let prefetcher = ScrollViewPrefetcher(itemCount: 10) { _ in
            } cancel: { _ in
            }
            #expect(prefetcher.windowSizing == .adaptive)
            #expect(prefetcher.windowSize == 60)
        }

        @Test func atRestTheWindowCoversBothSides() {
            // Given rows 100–109 on screen, not moving
            let scroller = Scroller()

            // Then four items on each side are asked for, nearest first
            #expect(Set(scroller.machine.window) == Set(96...99).union(110...113))
            #expect(scroller.updates[0].prefetch == [110, 99, 111, 98, 112, 97, 113, 96])
        }

        @Test func fastScrollingReachesFurtherThanSlow() {
            // Given two lists scrolling down, one at 20 items a second, one at 200
            var slow = Scroller()
            var fast = Scroller()

            // When each has scrolled for half a second
            slow.move(by: 1, steps: 10)
            fast.move(by: 10, steps: 10)

            // Then the fast one reaches further ahead: about speed × (300 ms load + 100 ms margin)
            #expect(slow.reachAhead >= 6 && slow.reachAhead <= 10, "slow reach \(slow.reachAhead)")
            #expect(fast.reachAhead == 60, "fast reach \(fast.reachAhead)")
            #expect(fast.machine.direction == .forward)
        }

        @Test func slowerLoadsReachFurther() {
            // Given two lists scrolling at 100 items a second, one whose loads take 100 ms, one 800 ms
            var quick = Scroller()
            var slow = Scroller()
            for _ in 0..<10 {
                quick.machine.observeLoadDuration(.milliseconds(100))
                slow.machine.observeLoadDuration(.milliseconds(800))
            }

            // When both scroll for half a second
            quick.move(by: 5, steps: 10)
            slow.move(by: 5, steps: 10)

            // Then the one with slow loads asks further ahead
            #expect(quick.reachAhead >= 15 && quick.reachAhead <= 25, "quick reach \(quick.reachAhead)")
            #expect(slow.reachAhead >= 80 - 10 || slow.reachAhead == 60, "slow reach \(slow.reachAhead)")
            #expect(slow.reachAhead > 2 * quick.reachAhead)
        }

        @Test func aQueueMakesItReachFurther() {
            // Given the same scrolling twice, once with two loads queued per slot
            var idle = Scroller()
            idle.move(by: 2, steps: 10)
            let idleCounts = idle.machine.adaptiveCounts(queuedLoadsPerSlot: 0)
            let queuedCounts = idle.machine.adaptiveCounts(queuedLoadsPerSlot: 2)

            // Then the queue wait adds to the horizon
            #expect(queuedCounts.ahead > idleCounts.ahead)
            #expect(queuedCounts.behind == idleCounts.behind)
        }

        @Test func aWobbleNeitherCancelsNorAsksAgain() {
            // Given a list scrolling down at 100 items a second
            var scroller = Scroller()
            scroller.move(by: 5, steps: 20)
            let before = scroller.updates.count

            // When the finger wobbles: a row back, a row forward, six times, then scrolls on
            for _ in 0..<6 {
                scroller.move(by: -1)
                scroller.move(by: 1)
            }
            let wobble = scroller.updates[before...]
            scroller.move(by: 5, steps: 10)

            // Then the wobble cancelled nothing, and no item was ever asked for twice
            #expect(wobble.allSatisfy { $0.cancel.isEmpty }, "\(Array(wobble))")
            #expect(scroller.machine.direction == .forward)
            let prefetched = scroller.updates.flatMap(\.prefetch)
            #expect(Set(prefetched).count == prefetched.count)
            // Only the resting items above the start were cancelled, once left behind
            #expect(Set(scroller.updates.flatMap(\.cancel)) == Set(96...99))
        }

        @Test func aReversalCancelsWhatItLeftAhead() {
            // Given a list scrolling down fast
            var scroller = Scroller(top: 1_000)
            scroller.move(by: 10, steps: 10)
            let ahead = Set(scroller.machine.window.filter { $0 > scroller.top + 9 })
            let before = scroller.updates.count

            // When it scrolls back up as fast
            scroller.move(by: -10, steps: 10)

            // Then the window turned upwards and the far items below were cancelled, never the near ones
            #expect(scroller.machine.direction == .backward)
            let cancelled = Set(scroller.updates[before...].flatMap(\.cancel))
            #expect(!cancelled.isEmpty)
            #expect(cancelled.isSubset(of: ahead))
            #expect(scroller.reachAhead <= 8)
            #expect((scroller.machine.window.min() ?? scroller.top) < scroller.top - 40)
        }

        @Test func aStoppedListComesBackToRest() {
            // Given a list that scrolled fast and stopped
            var scroller = Scroller()
            scroller.move(by: 10, steps: 10)
            #expect(scroller.machine.isMoving)

            // When it settles again later with nothing changed
            for _ in 0..<8 {
                scroller.time += .milliseconds(250)
                _ = scroller.machine.settle(at: scroller.time)
            }

            // Then it is at rest: four items wanted on each side (the rows above were seen already)
            #expect(!scroller.machine.isMoving)
            #expect(scroller.machine.adaptiveCounts() == (ahead: 4, behind: 4))
            #expect(Set(scroller.machine.window).isSuperset(of: Set((scroller.top + 10)..<(scroller.top + 14))))
            scroller.machine.checkInvariants()
        }

        @Test func theDrivenPrefetcherFollowsTheClock() async {
            // Given an adaptive prefetcher on a manual clock
            let clock = ManualClock()
            let recorder = WindowRecorder()

            // When rows 100–109 appear
            let prefetcher = await recorder.adaptivePrefetcherAtRow100(clock: clock, manual: clock)

            // Then the resting window on both sides is asked for
            #expect(recorder.emissions == [.prefetch([110, 99, 111, 98, 112, 97, 113, 96])])

            // When the list scrolls down 5 rows every 50 ms for half a second
            var top = 100
            for _ in 0..<10 {
                for index in top..<(top + 5) { prefetcher.onDisappear(index) }
                for index in (top + 10)..<(top + 15) { prefetcher.onAppear(index) }
                top += 5
                await clock.waitForSleepers(count: 1)
                let count = recorder.emissions.count
                clock.advance(by: .milliseconds(50))
                await recorder.waitForEmissions(count + 1)
            }

            // Then the speed is measured on the clock and the window reaches ahead of it
            #expect(abs(prefetcher.itemsPerSecond - 100) < 15, "\(prefetcher.itemsPerSecond)")
            #expect((prefetcher.window.max() ?? 0) - (top + 9) >= 30)
        }
    }
}
