#if Tools
import Foundation
import LookaheadHTTP
import Testing

@testable import LookaheadServer

/// The server refuses configurations out of range, keeps its latency draws
/// finite, caps the requests that wait at once, and serves on IPv6 hosts.
@Suite(.timeLimit(.minutes(1)))
struct FeedServerLimitsTests {
    /// A configuration of `itemCount` items, changed by `change`.
    func configuration(
        itemCount: Int = 10_000, _ change: (inout FeedServerConfiguration) -> Void
    ) -> FeedServerConfiguration {
        var configuration = FeedServerConfiguration(itemCount: itemCount)
        change(&configuration)
        return configuration
    }

    func configurationError(_ configuration: FeedServerConfiguration) -> String? {
        do {
            try configuration.validate()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func configurationsOutOfRangeAreRefused() {
        let cases: [(FeedServerConfiguration, String)] = [
            (FeedServerConfiguration(itemCount: 300_000_000_000_000_000), "itemCount must be in 0...1000000"),
            (configuration { $0.maximumWaitingRequests = 0 }, "maximumWaitingRequests must be in"),
            (
                FeedServerConfiguration(faults: FaultInjection(latencyMedian: .seconds(601))),
                "latencyMedian must be in"
            ),
            (
                FeedServerConfiguration(
                    faults: FaultInjection(latencyMedian: .seconds(1), latencyP99: .seconds(1_000_000_000))),
                "latencyP99 must be at least latencyMedian (1000 ms) and at most 600000 ms"
            ),
            (
                FeedServerConfiguration(
                    faults: FaultInjection(latencyMedian: .milliseconds(1), latencyP99: .seconds(2))),
                "at most 1000 times"
            ),
            (
                FeedServerConfiguration(faults: FaultInjection(bandwidthBytesPerSecond: .max)),
                "bandwidthBytesPerSecond must be in"
            ),
        ]
        for (configuration, expected) in cases {
            let message = configurationError(configuration)
            #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
        }
        #expect(configurationError(FeedServerConfiguration(itemCount: FeedServerConfiguration.maximumItemCount)) == nil)
    }

    @Test func aServerOutOfRangeDoesNotStart() async {
        // Given items whose ids would overflow `id * 37`
        let server = FeedServer(
            configuration: FeedServerConfiguration(itemCount: 300_000_000_000_000_000), logger: quietLogger)

        // When it is started
        // Then it refuses, saying why
        await #expect(throws: FeedServerError.self) { _ = try await server.start() }
    }

    @Test func latencyDrawsFromAWideSpreadStayFinite() {
        // Given a spread far wider than the validation allows, used directly
        let faults = FaultInjection(latencyMedian: .seconds(1), latencyP99: .seconds(1_000_000_000))

        // When many latencies are drawn (unclamped, one in a few thousand overflows Int64)
        // Then none traps and none exceeds the maximum
        for request in 1...20_000 {
            let latency = faults.drawLatency(seed: 3, request: request)
            #expect(latency >= .zero && latency <= FaultInjection.maximumLatency, "request \(request): \(latency)")
        }
    }

    @Test func requestsBeyondTheWaitingCapAreAnswered503() async throws {
        // Given a server that lets two requests wait at once, and two waiting
        let server = FeedServer(
            configuration: configuration(itemCount: 10) { $0.maximumWaitingRequests = 2 }, logger: quietLogger)
        let url = try await server.start()
        let loader = HTTPLoader(
            baseURL: url, configuration: .init(timeout: .seconds(5), maximumConnections: 8), logger: quietLogger)
        let waiting = (1...2).map { id in
            Task { try await loader.data(path: "/v0/item/\(id).json", query: ["latency_ms": "600000"]) }
        }
        try await waitUntil("two requests waiting") { server.statistics.inFlight == 2 }

        // When a third asks to wait
        let refused = await error {
            try await loader.data(path: "/v0/item/3.json", query: ["latency_ms": "600000"])
        }
        let refusedCount = server.statistics.waitsRefused
        let served = try? await loader.data(path: "/v0/item/4.json")
        for task in waiting { task.cancel() }
        for task in waiting { _ = try? await task.value }
        try await loader.shutdown()
        await server.stop()

        // Then it is answered 503 at once, saying why; one that does not wait is served
        let (status, message) = try #require(statusAndMessage(refused))
        #expect(status == 503)
        #expect(message.contains("too many requests are waiting"))
        #expect(refusedCount == 1)
        #expect(served?.isEmpty == false)
    }

    @Test func aPaddedBodyIsTheSameBytesAsTheWholeRecord() throws {
        // Given the reference: the record with its text field encoded whole
        func reference(id: Int, bytes: Int) throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var record = FeedItemRecord(id: id, seed: 5)
            let plain = try encoder.encode(record).count
            guard bytes > plain + 10 else { return Array(try encoder.encode(record)) }
            let filler = String(decoding: ResponseBytes.fillerPattern, as: UTF8.self)
            let length = bytes - plain - 10
            var text = String(repeating: filler, count: length / filler.utf8.count + 1)
            text.removeLast(text.utf8.count - length)
            record.text = text
            return Array(try encoder.encode(record))
        }
        let seed: UInt64 = 0x5EED
        var counter: UInt64 = 0
        func draw(_ bound: UInt64) -> Int {
            counter += 1
            return Int(SeededRandom.mix(seed ^ counter) % bound)
        }
        for bytes in [0, 10, 200, 250, 251, 4_096, 1_048_576] + (0..<20).map({ _ in draw(100_000) }) {
            let id = draw(1_000) + 1
            let body = FeedItemRecord(id: id, seed: 5).body(paddedTo: bytes)
            // When it is produced in chunks of a random size
            let chunk = draw(70_000) + 1
            var produced: [UInt8] = []
            var start = 0
            while start < body.count {
                let end = min(start + chunk, body.count)
                produced += body.bytes(in: start..<end)
                start = end
            }
            // Then it is byte for byte the reference
            #expect(produced == (try reference(id: id, bytes: bytes)), "seed \(seed), id \(id), bytes \(bytes)")
            #expect(body.count == produced.count)
        }
    }

    @Test func prefixesAndConcatenationsKeepTheirBytes() {
        let body = ResponseBytes(segments: [.bytes([1, 2, 3]), .filler(count: 100), .bytes([9])])
        let all = body.allBytes
        #expect(all.count == 104)
        for length in [0, 2, 3, 50, 103, 104, 200] {
            #expect(body.prefix(length).allBytes == Array(all.prefix(length)), "\(length)")
        }
        let joined = ResponseBytes([7]) + body.prefix(52)
        #expect(joined.allBytes == [7] + all.prefix(52))
    }

    @Test func anIPv6HostIsBracketedInTheURL() throws {
        #expect(try configuration { $0.host = "::1" }.baseURL(port: 8080).absoluteString == "http://[::1]:8080")
        #expect(try FeedServerConfiguration().baseURL(port: 80).absoluteString == "http://127.0.0.1:80")
        #expect(throws: FeedServerError.self) { try configuration { $0.host = "a b" }.baseURL(port: 80) }
    }

    @Test func aServerOnIPv6LoopbackStartsAndServes() async throws {
        // Given a server bound to ::1 (which crashed building its URL)
        let server = FeedServer(configuration: configuration(itemCount: 5) { $0.host = "::1" }, logger: quietLogger)

        // When it starts
        let url = try await server.start()

        // Then its URL is bracketed and serves
        #expect(url.absoluteString.hasPrefix("http://[::1]:"))
        let loader = HTTPLoader(baseURL: url, logger: quietLogger)
        #expect(try await loader.data(path: "/v0/item/1.json").count > 0)
        try await loader.shutdown()
        await server.stop()
    }
}
#endif
