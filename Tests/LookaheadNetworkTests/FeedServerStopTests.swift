#if Tools
import Foundation
import LookaheadHTTP
import LookaheadServer
import Testing

@Suite(.timeLimit(.minutes(1)))
struct FeedServerStopTests {
    @Test(arguments: 0..<5)
    func stoppingWithRequestsInFlightEndsThemAndShutsDown(round: Int) async throws {
        // Given requests waiting out a long latency, stalled, and streaming through a slow link
        let server = FeedServer(
            configuration: FeedServerConfiguration(
                itemCount: 50, faults: FaultInjection(bandwidthBytesPerSecond: 20_000)),
            logger: quietLogger)
        let url = try await server.start()
        let loader = HTTPLoader(
            baseURL: url, configuration: .init(timeout: .seconds(30), maximumConnections: 16), logger: quietLogger)
        let requests: [Task<Void, any Error>] = (0..<12).map { index in
            Task {
                let query: [String: String] =
                    switch index % 3 {
                    case 0: ["latency_ms": "30000"]
                    case 1: ["fault": "stall"]
                    default: ["bytes": "200000"]
                    }
                _ = try await loader.data(path: "/v0/item/\(index + 1).json", query: query)
            }
        }
        try await waitUntil("all 12 requests reach the server (round \(round))") {
            server.statistics.requests == 12
        }

        // When the server stops
        let stopped = ContinuousClock.now
        await server.stop()

        // Then it returned well before the latency or the stalls would have ended,
        // every request ended in an error, and none was counted as ended by its client
        #expect(ContinuousClock.now - stopped < .seconds(10))
        #expect(server.port == nil)
        var failures = 0
        for request in requests {
            if case .failure = await request.result { failures += 1 }
        }
        #expect(failures >= 8, "round \(round): the waiting and stalled requests fail")
        #expect(server.statistics.endedByClient == 0)
        #expect(server.statistics.inFlight == 0)
        try await loader.shutdown()
    }
}
#endif
