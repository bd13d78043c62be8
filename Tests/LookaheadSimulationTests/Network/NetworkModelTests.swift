import Testing

@testable import LookaheadSimulation

@Suite(.timeLimit(.minutes(1)))
struct NetworkModelTests {
    private func milliseconds(_ duration: Duration) -> Double {
        duration / .milliseconds(1)
    }

    /// The `q` quantile of sorted values (nearest rank).
    private func quantile(_ q: Double, of sorted: [Double]) -> Double {
        sorted[min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.down)))]
    }

    // MARK: - Latency distribution

    @Test(arguments: [(120, 800), (80, 400), (600, 3_000)])
    func logNormalLatencyConvergesToTheRequestedMedianAndP99(median: Int, p99: Int) {
        // Given a seeded log-normal latency
        let model = NetworkModel(
            seed: 2_024, latency: .logNormal(median: .milliseconds(median), p99: .milliseconds(p99)),
            payload: .fixed(bytes: 1))

        // When 200,000 items' latencies are drawn
        let latencies = (0..<200_000).map { milliseconds(model.latency(forItem: $0)) }.sorted()

        // Then the sample median and p99 are within 2% of the requested ones
        let sampleMedian = quantile(0.5, of: latencies)
        let sampleP99 = quantile(0.99, of: latencies)
        #expect(abs(sampleMedian / Double(median) - 1) < 0.02, "median \(sampleMedian) ms, wanted \(median)")
        #expect(abs(sampleP99 / Double(p99) - 1) < 0.02, "p99 \(sampleP99) ms, wanted \(p99)")
    }

    @Test func sigmaFollowsFromTheMedianAndP99() {
        // Given the feed's latency, median 120 ms and p99 800 ms
        // When σ is derived
        let sigma = NetworkModel.logNormalSigma(median: 120, p99: 800)

        // Then σ = ln(800 / 120) / z₀.₉₉
        #expect(abs(sigma - 0.815_492_818_617_279_6) < 1e-12)
    }

    @Test func aP99EqualToTheMedianMakesEveryLatencyTheMedian() {
        let model = NetworkModel(
            seed: 1, latency: .logNormal(median: .milliseconds(50), p99: .milliseconds(50)), payload: .fixed(bytes: 1))
        #expect((0..<100).allSatisfy { model.latency(forItem: $0) == .milliseconds(50) })
    }

    // MARK: - Determinism

    @Test func anItemsLatencyDoesNotDependOnWhatWasAskedBefore() {
        // Given a model, and item 7's latency asked first
        let model = NetworkModel.feed(seed: 99)
        let first = model.latency(forItem: 7)

        // When many other items are asked for, in a scrambled order, and item 7 again
        var scrambled: [Int: Duration] = [:]
        for step in 0..<1_000 {
            let item = (step * 7_919) % 1_000
            scrambled[item] = model.latency(forItem: item)
        }
        let again = model.latency(forItem: 7)

        // Then item 7 gets the same latency, and so does every item asked in order
        #expect(again == first)
        #expect(scrambled[7] == first)
        #expect((0..<1_000).allSatisfy { scrambled[$0] == model.latency(forItem: $0) })
    }

    @Test func theSameSeedGivesTheSameNetwork() {
        // Given two models built separately from the same seed
        let one = NetworkModel.photos(seed: 31_337)
        let other = NetworkModel.photos(seed: 31_337)

        // Then every latency, payload and failure is the same
        for item in 0..<1_000 {
            #expect(one.latency(forItem: item) == other.latency(forItem: item))
            #expect(one.latency(forItem: item, attempt: 2) == other.latency(forItem: item, attempt: 2))
            #expect(one.payloadBytes(forItem: item) == other.payloadBytes(forItem: item))
        }
    }

    @Test func aDifferentSeedGivesDifferentLatencies() {
        // Given two models with different seeds
        let one = NetworkModel.feed(seed: 1)
        let other = NetworkModel.feed(seed: 2)

        // When the same items' latencies are compared
        let same = (0..<1_000).filter { one.latency(forItem: $0) == other.latency(forItem: $0) }.count

        // Then (nanosecond resolution) practically none coincide
        #expect(same <= 1)
    }

    @Test func eachAttemptDrawsItsOwnLatency() {
        // Given a model
        let model = NetworkModel.feed(seed: 5)

        // When the first and second attempts of the same items are compared
        let same = (0..<1_000).filter { model.latency(forItem: $0) == model.latency(forItem: $0, attempt: 1) }.count

        // Then they differ, and attempt 0 is the default
        #expect(same <= 1)
        #expect(model.latency(forItem: 3) == model.latency(forItem: 3, attempt: 0))
    }

    @Test func latenciesAreTheSameBitsOnEveryPlatform() {
        // Given the feed's network for seed 42
        let model = NetworkModel.feed(seed: 42)

        // Then the first latencies are exactly these (an independent Python
        // rendering of the same hash and AS 241 gives the same nanoseconds).
        // They come from integer hashing and IEEE arithmetic only, so any
        // change here is a change of the model, and of every published figure.
        let latencies = (0..<4).map { model.latency(forItem: $0) }
        #expect(latencies == goldenFeedLatencies, "\(latencies.map { $0 / .nanoseconds(1) })")
    }

    private let goldenFeedLatencies: [Duration] = [
        .nanoseconds(33_169_492), .nanoseconds(62_538_115), .nanoseconds(336_013_462), .nanoseconds(144_843_989),
    ]

    @Test func changingTheLatencyLaterIsTheSameAsBuildingWithIt() {
        // Given a feed model whose latency is overridden afterwards
        var model = NetworkModel.feed(seed: 8)
        model.latency = .logNormal(median: .milliseconds(300), p99: .seconds(2))

        // When it is compared with a model built with that latency
        let built = NetworkModel(
            seed: 8, latency: .logNormal(median: .milliseconds(300), p99: .seconds(2)),
            payload: .uniform(1_500...2_500))

        // Then they draw the same latencies
        #expect((0..<100).allSatisfy { model.latency(forItem: $0) == built.latency(forItem: $0) })
        #expect(model == built)
    }

    // MARK: - Explicit latencies

    @Test func fixedLatencyIsTheSameForEveryItemAndAttempt() {
        let model = NetworkModel(seed: 0, latency: .fixed(.milliseconds(250)), payload: .fixed(bytes: 10))
        #expect(model.latency(forItem: 0) == .milliseconds(250))
        #expect(model.latency(forItem: 12_345, attempt: 3) == .milliseconds(250))
    }

    @Test func perItemLatenciesWrapAroundAndIgnoreTheAttempt() {
        // Given three explicit latencies
        let model = NetworkModel(
            seed: 0, latency: .perItem([.milliseconds(10), .milliseconds(20), .milliseconds(30)]),
            payload: .fixed(bytes: 10))

        // Then item i gets element i mod 3, on every attempt
        #expect((0..<6).map { model.latency(forItem: $0) } == [10, 20, 30, 10, 20, 30].map { .milliseconds($0) })
        #expect(model.latency(forItem: 1, attempt: 4) == .milliseconds(20))
    }

    // MARK: - Payloads

    @Test func uniformPayloadsCoverTheirRangeAndStayInIt() {
        // Given the photos' 45–75 KB thumbnails
        let model = NetworkModel.photos(seed: 77)

        // When 100,000 items' sizes are drawn
        let sizes = (0..<100_000).map { model.payloadBytes(forItem: $0) }

        // Then they stay in the range, reach near both ends, and average the middle
        #expect(sizes.allSatisfy { (45_000...75_000).contains($0) })
        #expect(sizes.min()! < 45_100 && sizes.max()! > 74_900)
        let mean = Double(sizes.reduce(0, +)) / Double(sizes.count)
        #expect(abs(mean - 60_000) < 200, "mean \(mean)")
    }

    @Test func aPayloadIsFixedPerItem() {
        let model = NetworkModel.feed(seed: 3)
        #expect(model.payloadBytes(forItem: 500) == NetworkModel.feed(seed: 3).payloadBytes(forItem: 500))
        #expect(
            NetworkModel(seed: 3, latency: .fixed(.zero), payload: .fixed(bytes: 2_048)).payloadBytes(forItem: 9)
                == 2_048)
    }

    @Test func logNormalPayloadsConvergeToTheirMedianAndP99() {
        // Given log-normal payloads, median 50 KB, p99 400 KB
        let model = NetworkModel(
            seed: 12, latency: .fixed(.zero), payload: .logNormal(median: 50_000, p99: 400_000))

        // When 100,000 sizes are drawn
        let sizes = (0..<100_000).map { Double(model.payloadBytes(forItem: $0)) }.sorted()

        // Then the sample median and p99 are close to the requested ones
        #expect(abs(quantile(0.5, of: sizes) / 50_000 - 1) < 0.02)
        #expect(abs(quantile(0.99, of: sizes) / 400_000 - 1) < 0.03)
    }

    // MARK: - Failures

    @Test func theFailureFractionIsCloseToTheRate() {
        // Given a 10% failure rate
        let model = NetworkModel(seed: 4, latency: .fixed(.zero), payload: .fixed(bytes: 1), failureRate: 0.1)

        // When 100,000 first attempts are tried
        let failures = (0..<100_000).filter { model.fails(item: $0, attempt: 0) }.count

        // Then about 10% fail (5 standard deviations: ±0.5%)
        #expect(abs(Double(failures) / 100_000 - 0.1) < 0.005, "\(failures) failures")
    }

    @Test func attemptsFailIndependently() {
        // Given a 20% failure rate
        let model = NetworkModel(seed: 6, latency: .fixed(.zero), payload: .fixed(bytes: 1), failureRate: 0.2)

        // When the first two attempts of 100,000 items are tried
        let first = (0..<100_000).map { model.fails(item: $0, attempt: 0) }
        let second = (0..<100_000).map { model.fails(item: $0, attempt: 1) }
        let both = zip(first, second).filter { $0 && $1 }.count
        let secondAfterFirst = Double(both) / Double(first.filter { $0 }.count)

        // Then both fail about 4% of the time, and a failure says nothing of the next attempt
        #expect(abs(Double(both) / 100_000 - 0.04) < 0.003, "\(both) double failures")
        #expect(abs(secondAfterFirst - 0.2) < 0.015, "P(second fails | first failed) = \(secondAfterFirst)")
    }

    @Test func failureRatesZeroAndOneAreCertain() {
        let never = NetworkModel(seed: 1, latency: .fixed(.zero), payload: .fixed(bytes: 1), failureRate: 0)
        let always = NetworkModel(seed: 1, latency: .fixed(.zero), payload: .fixed(bytes: 1), failureRate: 1)
        #expect((0..<10_000).allSatisfy { !never.fails(item: $0, attempt: $0 % 3) })
        #expect((0..<10_000).allSatisfy { always.fails(item: $0, attempt: $0 % 3) })
    }

    // MARK: - Presets

    @Test func presetsMatchTheIssuesScenarios() {
        let feed = NetworkModel.feed(seed: 0)
        #expect(feed.latency == .logNormal(median: .milliseconds(120), p99: .milliseconds(800)))
        #expect(feed.payload == .uniform(1_500...2_500))
        #expect(feed.bandwidth == .unlimited)
        #expect(feed.failureRate == 0)

        let photos = NetworkModel.photos(seed: 0)
        #expect(photos.latency == .logNormal(median: .milliseconds(80), p99: .milliseconds(400)))
        #expect(photos.payload == .uniform(45_000...75_000))
        #expect(photos.bandwidth == .bitsPerSecond(20_000_000))

        let slow = NetworkModel.slowNetwork(seed: 0)
        #expect(slow.latency == .logNormal(median: .milliseconds(600), p99: .seconds(3)))
        #expect(slow.payload == .uniform(1_500...2_500))
        #expect(slow.bandwidth == .bitsPerSecond(400_000))
    }
}
