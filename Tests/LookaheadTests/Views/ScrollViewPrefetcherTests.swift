import Testing

@testable import Lookahead

/// Records what a ``ScrollViewPrefetcher`` delivers and lets a test await it.
final class WindowRecorder: Sendable {
    enum Emission: Hashable, Sendable {
        case prefetch([Int])
        case cancel([Int])
    }

    private struct State {
        var emissions: [Emission] = []
        var waiters = CountWaiters()
    }

    private let state = LockedValue(State())

    /// Everything delivered so far, in order.
    var emissions: [Emission] { state.withLock { $0.emissions } }

    func record(_ emission: Emission) {
        let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.emissions.append(emission)
            return state.waiters.takeDue(tally: state.emissions.count)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `count` emissions in total have been delivered.
    func waitForEmissions(_ count: Int) async {
        await state.wait(until: count, of: \.emissions.count, waiters: \.waiters)
    }

    /// Waits for `count` more emissions than `emissions` holds now and returns them.
    func next(_ count: Int = 1) async -> [Emission] {
        let start = emissions.count
        await waitForEmissions(start + count)
        return Array(emissions[start...])
    }
}

extension WindowRecorder {
    /// An adaptive prefetcher of 1,000 items that reports here, sleeping on
    /// `clock` (whose time is `manual`'s), with rows 100–109 shown and its
    /// first settle delivered.
    func adaptivePrefetcherAtRow100(clock: some Clock<Duration>, manual: ManualClock) async -> ScrollViewPrefetcher {
        let prefetcher = ScrollViewPrefetcher(
            itemCount: 1_000, clock: clock, prefetch: { self.record(.prefetch($0)) },
            cancel: { self.record(.cancel($0)) })
        for index in 100..<110 { prefetcher.onAppear(index) }
        await manual.waitForSleepers(count: 1)
        manual.advance(by: .milliseconds(50))
        await waitForEmissions(1)
        return prefetcher
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ScrollViewPrefetcherTests {
    static let interval = Duration.milliseconds(50)

    func makePrefetcher(
        itemCount: Int = 100,
        windowSize: Int = 12,
        debounce: Duration = interval,
        clock: ManualClock = ManualClock(),
        recorder: WindowRecorder
    ) -> ScrollViewPrefetcher {
        ScrollViewPrefetcher(
            itemCount: itemCount,
            window: .fixed(count: windowSize),
            debounce: debounce,
            clock: clock,
            prefetch: { recorder.record(.prefetch($0)) },
            cancel: { recorder.record(.cancel($0)) }
        )
    }

    /// Lets the scheduled update run and returns the next `count` emissions.
    func settle(
        _ clock: ManualClock, _ recorder: WindowRecorder, emissions count: Int = 1
    ) async
        -> [WindowRecorder.Emission]
    {
        let start = recorder.emissions.count
        await clock.waitForSleepers(count: 1)
        clock.advance(by: Self.interval)
        await recorder.waitForEmissions(start + count)
        return Array(recorder.emissions[start...])
    }

    /// Scrolls the visible range from `from` to `to` one row at a time, as a list does.
    func scroll(_ prefetcher: ScrollViewPrefetcher, from: ClosedRange<Int>, to: ClosedRange<Int>) {
        var range = from
        while range != to {
            if to.lowerBound > range.lowerBound {
                prefetcher.onAppear(range.upperBound + 1)
                prefetcher.onDisappear(range.lowerBound)
                range = (range.lowerBound + 1)...(range.upperBound + 1)
            } else {
                prefetcher.onAppear(range.lowerBound - 1)
                prefetcher.onDisappear(range.upperBound)
                range = (range.lowerBound - 1)...(range.upperBound - 1)
            }
        }
    }

    // MARK: Scrolling

    @Test func firstLayoutPrefetchesTheNextWindowNearestFirst() async {
        // Given a list of 100 items and a window of 12
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(clock: clock, recorder: recorder)

        // When the first ten rows appear
        for index in 0..<10 { prefetcher.onAppear(index) }
        let emissions = await settle(clock, recorder)

        // Then the twelve items after them are prefetched, nearest first
        #expect(emissions == [.prefetch(Array(10...21))])
        #expect(prefetcher.direction == .forward)
        #expect(prefetcher.window == Array(10...21))
    }

    @Test func scrollingFurtherPrefetchesOnlyTheNewItems() async {
        // Given rows 0–9 visible and 10–21 prefetched
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(clock: clock, recorder: recorder)
        for index in 0..<10 { prefetcher.onAppear(index) }
        _ = await settle(clock, recorder)

        // When the list scrolls down by one row, and then by two
        scroll(prefetcher, from: 0...9, to: 1...10)
        let oneRow = await settle(clock, recorder)
        scroll(prefetcher, from: 1...10, to: 3...12)
        let twoRows = await settle(clock, recorder)

        // Then each update asks for one item per row that appeared, and cancels nothing
        #expect(oneRow == [.prefetch([22])])
        #expect(twoRows == [.prefetch([23, 24])])
        #expect(prefetcher.window == Array(13...24))
    }

    @Test func reversingReplacesTheWindowAndCancelsOnlyUnseenItems() async {
        // Given rows 20–29 visible after scrolling down, and 30–41 prefetched
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(clock: clock, recorder: recorder)
        for index in 0..<10 { prefetcher.onAppear(index) }
        _ = await settle(clock, recorder)
        scroll(prefetcher, from: 0...9, to: 20...29)
        _ = await settle(clock, recorder)
        #expect(prefetcher.window == Array(30...41))

        // When the user scrolls back up by one row
        scroll(prefetcher, from: 20...29, to: 19...28)
        let emissions = await settle(clock, recorder, emissions: 2)

        // Then the forward window is cancelled and the one above is prefetched, nearest first
        #expect(emissions == [.cancel(Array(30...41)), .prefetch(Array((7...18).reversed()))])
        #expect(prefetcher.direction == .backward)
    }

    @Test func itemsThatBecameVisibleAreNeverCancelled() async {
        // Given rows 20–29 visible after scrolling down, and 30–41 prefetched
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(clock: clock, recorder: recorder)
        for index in 0..<10 { prefetcher.onAppear(index) }
        _ = await settle(clock, recorder)
        scroll(prefetcher, from: 0...9, to: 20...29)
        _ = await settle(clock, recorder)

        // When rows 30–32 scroll into view and, before the update, the user jumps to the top
        scroll(prefetcher, from: 20...29, to: 23...32)
        for index in 23...32 { prefetcher.onDisappear(index) }
        for index in 0...9 { prefetcher.onAppear(index) }
        let emissions = await settle(clock, recorder)

        // Then only the items never shown are cancelled, and nothing lies above the top
        #expect(emissions == [.cancel(Array(33...41))])
        #expect(prefetcher.direction == .backward)
        #expect(prefetcher.window.isEmpty)
    }

    @Test func theWindowIsClampedAtBothEnds() {
        // Given a list of 20 items, updated on every call
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(itemCount: 20, debounce: .zero, recorder: recorder)

        // When the first rows appear
        for index in 0..<10 { prefetcher.onAppear(index) }

        // Then the window stops at the last item
        #expect(prefetcher.window == Array(10...19))

        // When the list reaches its bottom, and then turns back up by one row
        scroll(prefetcher, from: 0...9, to: 10...19)
        #expect(prefetcher.window.isEmpty)
        scroll(prefetcher, from: 10...19, to: 9...18)

        // Then the window above stops at the first item, and no index outside the list was ever asked for
        #expect(prefetcher.window == Array((0...8).reversed()))
        #expect(recorder.emissions.last == .prefetch(Array((0...8).reversed())))
        for emission in recorder.emissions {
            switch emission {
            case .prefetch(let indices), .cancel(let indices):
                #expect(indices.allSatisfy { (0..<20).contains($0) })
            }
        }
    }

    @Test func windowSizeIsRespected() async {
        // Given a window of 4
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(windowSize: 4, clock: clock, recorder: recorder)

        // When the first ten rows appear
        for index in 0..<10 { prefetcher.onAppear(index) }
        let emissions = await settle(clock, recorder)

        // Then four items are prefetched
        #expect(emissions == [.prefetch([10, 11, 12, 13])])
        #expect(prefetcher.windowSize == 4)
    }

    // MARK: Timing

    @Test func aBurstProducesOneUpdateAfterTheInterval() async {
        // Given a prefetcher debounced by 50 ms
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(clock: clock, recorder: recorder)

        // When a burst of appearances arrives and 49 ms pass
        for index in 0..<10 { prefetcher.onAppear(index) }
        scroll(prefetcher, from: 0...9, to: 2...11)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(49))

        // Then nothing has been delivered, and one update is scheduled
        #expect(recorder.emissions.isEmpty)
        #expect(prefetcher.window.isEmpty)
        #expect(clock.sleepCount == 1)

        // When the last millisecond passes
        clock.advance(by: .milliseconds(1))
        await recorder.waitForEmissions(1)

        // Then one update reflects where the burst ended
        #expect(recorder.emissions == [.prefetch(Array(12...23))])
        #expect(clock.sleepCount == 1)
    }

    @Test func zeroDebounceUpdatesInsideEachCall() {
        // Given a prefetcher without debouncing
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(windowSize: 3, debounce: .zero, recorder: recorder)

        // When rows appear and the list scrolls by one row
        prefetcher.onAppear(0)
        prefetcher.onAppear(1)
        scroll(prefetcher, from: 0...1, to: 1...2)

        // Then every change was delivered before the call returned
        #expect(recorder.emissions == [.prefetch([1, 2, 3]), .prefetch([4]), .prefetch([5])])
    }

    @Test func growingTheListExtendsAClampedWindow() async {
        // Given a list of 15 items scrolled to its top, window clamped at 14
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(itemCount: 15, clock: clock, recorder: recorder)
        for index in 0..<10 { prefetcher.onAppear(index) }
        _ = await settle(clock, recorder)

        // When the next page arrives
        prefetcher.itemCount = 40
        let emissions = await settle(clock, recorder)

        // Then the window grows to its full size
        #expect(emissions == [.prefetch(Array(15...21))])
        #expect(prefetcher.itemCount == 40)
    }

    @Test func badIndicesAreIgnored() async {
        // Given a list of 20 items
        let clock = ManualClock()
        let recorder = WindowRecorder()
        let prefetcher = makePrefetcher(itemCount: 20, windowSize: 2, clock: clock, recorder: recorder)

        // When out-of-range indices appear, an index that never appeared
        // disappears, and row 0 appears twice
        prefetcher.onAppear(-1)
        prefetcher.onAppear(20)
        prefetcher.onDisappear(5)
        prefetcher.onAppear(0)
        prefetcher.onAppear(0)
        let emissions = await settle(clock, recorder)

        // Then only row 0 counts
        #expect(emissions == [.prefetch([1, 2])])
        #expect(prefetcher.itemCount == 20)
    }

    // MARK: Delivery

    @Test func aCallbackMayCallBackIn() {
        // Given a consumer that shows row 1 as soon as it is asked to prefetch it
        let recorder = WindowRecorder()
        let depth = LockedValue((current: 0, deepest: 0))
        let box = LockedValue<ScrollViewPrefetcher?>(nil)
        let prefetcher = ScrollViewPrefetcher(itemCount: 10, window: .fixed(count: 2), debounce: .zero) { indices in
            depth.withLock { depth in
                depth.current += 1
                depth.deepest = max(depth.deepest, depth.current)
            }
            recorder.record(.prefetch(indices))
            if indices.contains(1) { box.withLock { $0 }?.onAppear(1) }
            depth.withLock { $0.current -= 1 }
        } cancel: {
            recorder.record(.cancel($0))
        }
        box.withLock { $0 = prefetcher }

        // When row 0 appears
        prefetcher.onAppear(0)

        // Then the nested update is delivered after the first callback returns, not inside it
        #expect(recorder.emissions == [.prefetch([1, 2]), .prefetch([3])])
        #expect(depth.withLock { $0.deepest } == 1)
        box.withLock { $0 = nil }
    }

    @Test func concurrentCallersGetOrderedNonOverlappingDeliveries() async {
        // Given a prefetcher updated inside every call, and callbacks that check they never overlap
        let recorder = WindowRecorder()
        let active = LockedValue((now: 0, overlaps: 0))
        @Sendable func enter() {
            active.withLock {
                if $0.now > 0 { $0.overlaps += 1 }; $0.now += 1
            }
        }
        @Sendable func leave() { active.withLock { $0.now -= 1 } }
        let prefetcher = ScrollViewPrefetcher(itemCount: 60, window: .fixed(count: 6), debounce: .zero) { indices in
            enter()
            recorder.record(.prefetch(indices))
            leave()
        } cancel: { indices in
            enter()
            recorder.record(.cancel(indices))
            leave()
        }

        // When four tasks report random appearances and disappearances at once
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var generator = SeededRandom(seed: 0xC0FFEE + UInt64(task))
                    for _ in 0..<500 {
                        let index = Int(generator.next() % 60)
                        if generator.next() % 2 == 0 {
                            prefetcher.onAppear(index)
                        } else {
                            prefetcher.onDisappear(index)
                        }
                    }
                }
            }
        }

        // Then no two callbacks ran at once, and every cancel follows the prefetch it withdraws
        #expect(active.withLock { $0.overlaps } == 0)
        var requested: Set<Int> = []
        for emission in recorder.emissions {
            switch emission {
            case .prefetch(let indices):
                requested.formUnion(indices)
            case .cancel(let indices):
                #expect(Set(indices).isSubset(of: requested), "seeds 0xC0FFEE...0xC0FFEE+3")
                requested.subtract(indices)
            }
        }
        #expect(Set(prefetcher.window).isSubset(of: requested))
    }

    // MARK: Driving a Prefetcher

    @Test func drivesARealPrefetcher() async {
        // Given a fetcher whose loads return at once and a prefetcher on it
        let fetcher = AsyncFetcher<String, String>(memoryCache: MemoryCache(countLimit: 1_000)) { key in
            "value of \(key)"
        }
        let imagePrefetcher = Prefetcher(fetcher: fetcher)
        let (completions, completed) = AsyncStream.makeStream(of: Void.self)
        imagePrefetcher.didComplete = { completed.yield() }
        let clock = ManualClock()
        let prefetcher = ScrollViewPrefetcher(
            prefetcher: imagePrefetcher, itemCount: 100, window: .fixed(count: 4), clock: clock
        ) { "item-\($0)" }

        // When the first rows appear and the update runs
        for index in 0..<6 { prefetcher.onAppear(index) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: Self.interval)
        for await _ in completions { break }
        await fetcher.waitUntilIdle()

        // Then the window's keys were fetched and cached
        #expect(imagePrefetcher.completedCount == 4)
        #expect(imagePrefetcher.outstandingCount == 0)
        for index in 6..<10 {
            #expect(fetcher.fetchedData(for: "item-\(index)") == "value of item-\(index)")
        }
        #expect(fetcher.fetchedData(for: "item-10") == nil)
    }

    @Test func cancellingStopsThePrefetchersLoads() async {
        // Given a prefetcher whose loads wait at a gate, running items 10–11 for rows 0–9
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String> { key in try await gate.load(key) }
        let imagePrefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 2)
        let clock = ManualClock()
        let prefetcher = ScrollViewPrefetcher(
            prefetcher: imagePrefetcher, itemCount: 100, window: .fixed(count: 4), clock: clock
        ) { $0 }
        for index in 0..<10 { prefetcher.onAppear(index) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: Self.interval)
        await gate.waitForStarts(2)

        // When the user jumps far down, away from the window
        for index in 0..<10 { prefetcher.onDisappear(index) }
        for index in 50..<60 { prefetcher.onAppear(index) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: Self.interval)

        // Then the abandoned loads are cancelled and the new window's start
        await gate.waitForCancellations(2)
        await gate.waitForStarts(4)
        #expect(Set(gate.cancelled) == [10, 11])
        #expect(Set(gate.started.suffix(2)) == [60, 61])
        #expect(imagePrefetcher.outstandingCount == 4)
        for key in gate.waiting { gate.succeed(key, with: "") }
        await gate.waitForStarts(6)
        for key in gate.waiting { gate.succeed(key, with: "") }
        await fetcher.waitUntilIdle()
        #expect(imagePrefetcher.completedCount == 4)
    }
}
