import Lookahead
import Testing

@testable import LookaheadSimulation

/// Hand-computed cases use a 20 Mbit/s link — 2,500 bytes per millisecond —
/// and 60,000-byte payloads: 24 ms alone, 48 ms when two share the link.
@Suite(.timeLimit(.minutes(1)))
struct TransferSimulatorTests {
    private let link = NetworkModel.Bandwidth.bitsPerSecond(20_000_000)

    /// Takes completions one by one, as the simulator's event loop does.
    private func drain(_ transfers: inout TransferSimulator) -> [TransferSimulator.Completion] {
        var completions: [TransferSimulator.Completion] = []
        while let next = transfers.nextCompletion() {
            completions.append(transfers.complete(next.id, at: next.time))
        }
        return completions
    }

    // MARK: - Sharing

    @Test func aLoneTransferTakesItsLatencyPlusItsBytesOverTheBandwidth() {
        // Given an idle 20 Mbit/s link
        var transfers = TransferSimulator(bandwidth: link)

        // When one 60,000-byte load with 10 ms latency starts at 0
        transfers.start(1, latency: .milliseconds(10), bytes: 60_000, at: .zero)

        // Then it completes at 10 + 60,000 · 8 / 20,000,000 s = 34 ms
        #expect(transfers.nextCompletion() == .init(id: 1, time: .milliseconds(34), failed: false, bytes: 60_000))
        #expect(drain(&transfers).map(\.time) == [.milliseconds(34)])
        #expect(transfers.bytesTransferred == 60_000)
        #expect(transfers.inFlightCount == 0)
    }

    @Test func twoEqualTransfersStartingTogetherFinishTogether() {
        // Given two equal loads started together
        var transfers = TransferSimulator(bandwidth: link)
        transfers.start(2, latency: .milliseconds(10), bytes: 60_000, at: .zero)
        transfers.start(1, latency: .milliseconds(10), bytes: 60_000, at: .zero)

        // When the link runs until both are done
        let completions = transfers.advance(to: .seconds(1))

        // Then each got half the link: 10 + 2 · 24 = 58 ms, smaller id first
        #expect(completions.map(\.id) == [1, 2])
        #expect(completions.map(\.time) == [.milliseconds(58), .milliseconds(58)])
        #expect(transfers.bytesTransferred == 120_000)
    }

    @Test func aTransferJoiningHalfwaySlowsTheFirst() {
        // Given load 1 transferring alone from 10 ms
        var transfers = TransferSimulator(bandwidth: link)
        transfers.start(1, latency: .milliseconds(10), bytes: 60_000, at: .zero)

        // When load 2 starts at 12 ms, so that its first byte comes at 22 ms,
        // when load 1 has received 12 ms · 2,500 B/ms = 30,000 bytes
        transfers.start(2, latency: .milliseconds(10), bytes: 60_000, at: .milliseconds(12))
        #expect(transfers.transferringCount == 1)
        #expect(transfers.advance(to: .milliseconds(22)).isEmpty)
        #expect(transfers.transferringCount == 2)
        #expect(transfers.bytesTransferred == 30_000)

        // Then load 1's last 30,000 bytes take 24 ms at half rate: done at 46 ms;
        // load 2, 30,000 bytes in by then, takes its last 30,000 alone: 58 ms
        #expect(drain(&transfers).map { [$0.id: $0.time] } == [[1: .milliseconds(46)], [2: .milliseconds(58)]])
    }

    @Test func aLoadInItsLatencyPhaseUsesNoBandwidth() {
        // Given load 1 transferring, and load 2 started with a long latency
        var transfers = TransferSimulator(bandwidth: link)
        transfers.start(1, latency: .zero, bytes: 60_000, at: .zero)
        transfers.start(2, latency: .seconds(1), bytes: 60_000, at: .zero)

        // Then load 1 has the whole link: 24 ms
        #expect(transfers.transferringCount == 1)
        #expect(transfers.nextCompletion()?.id == 1)
        #expect(transfers.nextCompletion()?.time == .milliseconds(24))
    }

    @Test func cancellingFreesTheBandwidthForTheOthers() {
        // Given two loads sharing the link from 10 ms
        var transfers = TransferSimulator(bandwidth: link)
        transfers.start(1, latency: .milliseconds(10), bytes: 60_000, at: .zero)
        transfers.start(2, latency: .milliseconds(10), bytes: 60_000, at: .zero)

        // When load 2 is cancelled at 34 ms, after 24 ms at 1,250 B/ms each
        transfers.cancel(2, at: .milliseconds(34))

        // Then its 30,000 bytes count as transferred, and load 1 gets the whole
        // link for its last 30,000 bytes: 12 ms, done at 46 ms
        #expect(transfers.bytesTransferred == 60_000)
        #expect(transfers.inFlightCount == 1)
        #expect(transfers.isInFlight(2) == false)
        #expect(drain(&transfers).map(\.time) == [.milliseconds(46)])
        #expect(transfers.bytesTransferred == 90_000)
    }

    @Test func cancellingDuringTheLatencyTransfersNothing() {
        // Given a load waiting for its first byte
        var transfers = TransferSimulator(bandwidth: link)
        transfers.start(1, latency: .milliseconds(100), bytes: 60_000, at: .zero)

        // When it is cancelled before the first byte
        transfers.cancel(1, at: .milliseconds(50))

        // Then nothing was transferred and nothing is left
        #expect(transfers.bytesTransferred == 0)
        #expect(transfers.nextCompletion() == nil)
    }

    @Test func unlimitedBandwidthCompletesAtStartPlusLatency() {
        // Given an unlimited link
        var transfers = TransferSimulator(bandwidth: .unlimited)

        // When a megabyte starts at 5 ms with 100 ms latency, and another at 50 ms with 10 ms
        transfers.start(1, latency: .milliseconds(100), bytes: 1_000_000, at: .milliseconds(5))
        transfers.start(2, latency: .milliseconds(10), bytes: 1_000_000, at: .milliseconds(50))

        // Then each arrives whole when its latency has elapsed
        #expect(transfers.transferringCount == 0)
        let completions = drain(&transfers)
        #expect(completions.map(\.id) == [2, 1])
        #expect(completions.map(\.time) == [.milliseconds(60), .milliseconds(105)])
        #expect(transfers.bytesTransferred == 2_000_000)
    }

    @Test func simultaneousCompletionsGoSmallerIdFirst() {
        // Given loads started in scrambled id order, all due at the same time
        var transfers = TransferSimulator(bandwidth: .unlimited)
        for id in [5, 3, 9, 1] {
            transfers.start(id, latency: .milliseconds(40), bytes: 100, at: .zero)
        }

        // When they complete
        // Then they come out by id, one at a time and all at once alike
        var copy = transfers
        #expect(drain(&transfers).map(\.id) == [1, 3, 5, 9])
        #expect(copy.advance(to: .milliseconds(40)).map(\.id) == [1, 3, 5, 9])
    }

    @Test func loadsCanStartAtTheTimeOfAPendingCompletion() {
        // Given load 1 due at 34 ms
        var transfers = TransferSimulator(bandwidth: link)
        transfers.start(1, latency: .milliseconds(10), bytes: 60_000, at: .zero)

        // When, before taking it, load 2 starts at 34 ms with no latency
        transfers.start(2, latency: .zero, bytes: 60_000, at: .milliseconds(34))

        // Then load 1 is still due at 34 ms, and load 2 then has the link alone
        #expect(transfers.nextCompletion()?.time == .milliseconds(34))
        #expect(drain(&transfers).map(\.time) == [.milliseconds(34), .milliseconds(58)])
    }

    // MARK: - Failures

    @Test func aFailingLoadTakesItsLatencyAndNoBandwidth() {
        // Given a failing load and a healthy one, both with 10 ms latency
        var transfers = TransferSimulator(bandwidth: link)
        transfers.start(1, latency: .milliseconds(10), bytes: 60_000, failing: true, at: .zero)
        transfers.start(2, latency: .milliseconds(10), bytes: 60_000, at: .zero)

        // When they complete
        let completions = drain(&transfers)

        // Then the failure comes after its latency with no bytes, and the other
        // load had the whole link
        #expect(
            completions == [
                .init(id: 1, time: .milliseconds(10), failed: true, bytes: 0),
                .init(id: 2, time: .milliseconds(34), failed: false, bytes: 60_000),
            ])
        #expect(transfers.bytesTransferred == 60_000)
    }

    @Test func startingPastAnUntakenCompletionIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            var transfers = TransferSimulator(bandwidth: .unlimited)
            transfers.start(1, latency: .milliseconds(10), bytes: 1, at: .zero)
            transfers.start(2, latency: .milliseconds(10), bytes: 1, at: .milliseconds(20))
        }
    }

    // MARK: - Properties

    @Test func equalSharingFinishesLoadsInSizeOrderAtAnalyticTimes() {
        for seed: UInt64 in 1...20 {
            // Given 2–12 loads of random sizes, all transferring from time zero
            var random = TraceRandom(seed: seed)
            let bitsPerSecond = 1_000_000 + Double(random.next() % 50_000_000)
            let sizes = (0..<(2 + Int(random.next() % 11))).map { _ in 1 + Int(random.next() % 200_000) }
            var transfers = TransferSimulator(bandwidth: .bitsPerSecond(bitsPerSecond))
            for (id, bytes) in sizes.enumerated() {
                transfers.start(id, latency: .zero, bytes: bytes, at: .zero)
            }

            // When they all complete
            let completions = drain(&transfers)

            // Then the k-th smallest finishes when the link has carried, on top of
            // the previous one, its extra bytes once per load still transferring
            let sorted = sizes.sorted()
            var expected = 0.0
            for (rank, bytes) in sorted.enumerated() {
                let previous = rank == 0 ? 0 : sorted[rank - 1]
                expected += Double(bytes - previous) * 8 * Double(sizes.count - rank) / bitsPerSecond
                let actual = completions[rank].time / .seconds(1)
                #expect(abs(actual - expected) < 1e-8, "seed \(seed), rank \(rank): \(actual) s, expected \(expected)")
                #expect(sizes[completions[rank].id] == bytes, "seed \(seed)")
            }
            #expect(transfers.bytesTransferred == sizes.reduce(0, +), "seed \(seed)")
        }
    }

    @Test func theLinkIsWorkConservingAndNextCompletionNeverLies() {
        for seed: UInt64 in 1...20 {
            // Given random loads starting at random times with random latencies,
            // a few of them cancelled, on a 10 Mbit/s link
            var random = TraceRandom(seed: seed)
            let bitsPerSecond = 10_000_000.0
            var transfers = TransferSimulator(bandwidth: .bitsPerSecond(bitsPerSecond))
            var events: [(time: Duration, id: Int, latency: Duration, bytes: Int, cancelAfter: Duration?)] = []
            for id in 0..<40 {
                let cancels = seed.isMultiple(of: 2) && random.next() % 5 == 0
                events.append(
                    (
                        time: .microseconds(Int64(random.next() % 2_000_000)), id: id,
                        latency: .microseconds(Int64(random.next() % 300_000)),
                        bytes: Int(random.next() % 100_000),
                        cancelAfter: cancels ? .microseconds(Int64(random.next() % 400_000)) : nil
                    ))
            }
            var actions: [(time: Duration, id: Int, isStart: Bool)] = []
            for event in events {
                actions.append((event.time, event.id, true))
                if let after = event.cancelAfter { actions.append((event.time + after, event.id, false)) }
            }
            actions.sort { ($0.time, $0.isStart ? 1 : 0, $0.id) < ($1.time, $1.isStart ? 1 : 0, $1.id) }

            // When an event loop drives it, taking each completion nextCompletion announces
            var completed: [Int: Duration] = [:]
            var cancelled: Set<Int> = []
            var pending = actions[...]
            while true {
                let next = transfers.nextCompletion()
                if let action = pending.first, next.map({ action.time < $0.time }) ?? true {
                    pending.removeFirst()
                    if action.isStart {
                        let event = events[action.id]
                        transfers.start(event.id, latency: event.latency, bytes: event.bytes, at: action.time)
                    } else if transfers.isInFlight(action.id) {
                        transfers.cancel(action.id, at: action.time)
                        cancelled.insert(action.id)
                    }
                } else if let next {
                    var peek = transfers
                    #expect(peek.advance(to: next.time).first == next, "seed \(seed)")
                    let completion = transfers.complete(next.id, at: next.time)
                    #expect(completion == next, "seed \(seed)")
                    completed[completion.id] = completion.time
                } else {
                    break
                }
            }

            // Then every load ended exactly once
            #expect(completed.count + cancelled.count == events.count, "seed \(seed)")
            #expect(Set(completed.keys).isDisjoint(with: cancelled), "seed \(seed)")

            // And, without cancellations, the bytes equal the bandwidth times the
            // time at least one load was transferring (the union of the transfer intervals)
            guard cancelled.isEmpty else { continue }
            let intervals = events.map { event in
                (start: (event.time + event.latency) / .seconds(1), end: completed[event.id]! / .seconds(1))
            }.filter { $0.end > $0.start }.sorted { $0.start < $1.start }
            var busy = 0.0
            var current: (start: Double, end: Double)?
            for interval in intervals {
                if let open = current, interval.start <= open.end {
                    current = (open.start, max(open.end, interval.end))
                } else {
                    if let open = current { busy += open.end - open.start }
                    current = interval
                }
            }
            if let open = current { busy += open.end - open.start }
            let bits = Double(events.reduce(0) { $0 + $1.bytes }) * 8
            #expect(abs(bits / bitsPerSecond - busy) < 1e-6, "seed \(seed): busy \(busy) s")
        }
    }
}
