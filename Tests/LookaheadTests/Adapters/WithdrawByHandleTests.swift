import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

/// Everyone on one fetcher withdraws only what they asked for: two screens'
/// coordinators (scrolling, reloading, moving items, pausing, going away)
/// and a `Prefetcher` (adding, stopping, going away) over the same items as
/// an app's own display requests and `await value(for:)` calls, in a seeded
/// random schedule. An app's request ends cancelled only if the app
/// cancelled it; every other one ends with its value.
@Suite(.queuedOnTheMainActor)
@MainActor
struct WithdrawByHandleTests {
    /// An app's own request and how it ended.
    @MainActor
    final class AppRequest {
        let key: Int
        let task: FetchTask?
        let awaiting: Task<String, any Error>?
        var cancelledByApp = false
        let deliveries = Deliveries<String>()

        /// A plain prefetch of the app's (`fetchAsync` without a completion), the kind a withdrawal by key ends.
        let isPlainPrefetch: Bool

        init(key: Int, fetcher: AsyncFetcher<Int, String>, kind: Int) {
            self.key = key
            isPlainPrefetch = kind == 2
            if isPlainPrefetch {
                task = fetcher.fetchAsync(key)
                awaiting = nil
            } else if kind == 1 {
                task = nil
                let deliveries = deliveries
                awaiting = Task {
                    do {
                        let value = try await fetcher.value(for: key)
                        deliveries.record(.success(value))
                        return value
                    } catch {
                        deliveries.record(.failure(error))
                        throw error
                    }
                }
            } else {
                let deliveries = deliveries
                task = fetcher.requestDisplay(of: key, priority: .high) { deliveries.record($0) }
                awaiting = nil
            }
        }

        func cancel() {
            cancelledByApp = true
            task?.cancel()
            awaiting?.cancel()
        }
    }

    @Test(arguments: [UInt64(0x0A11_0001), 0x0A11_0002, 0x0A11_0003])
    func noRequestIsWithdrawnByAnyoneButItsMaker(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 3) { key in try await gate.load(key) }
        var screens: [CoordinatorLifetimeTests.Screen?] = [
            CoordinatorLifetimeTests.Screen(fetcher: fetcher), CoordinatorLifetimeTests.Screen(fetcher: fetcher),
        ]
        var prefetcher: Prefetcher<Int, String>? = Prefetcher(fetcher: fetcher)
        var requests: [AppRequest] = []
        // Items 360-460: on screen or ahead of both screens at 10,000-11,000 pt.
        func someKey() -> Int { 360 + random.next(below: 100) }
        var time = Duration.milliseconds(16)

        for _ in 0..<600 {
            let index = random.next(below: 2)
            switch random.next(below: 12) {
            case 0, 1, 2:
                guard let screen = screens[index], let coordinator = screen.coordinator else { break }
                time += .milliseconds(16)
                screen.view.step(to: Point(x: 0, y: 10_000 + Double(random.next(below: 1_000))), at: time)
                coordinator.scrollViewDidScroll(
                    contentOffset: screen.view.contentOffset, viewportSize: screen.view.bounds.size, at: time)
            case 3:
                screens[index]?.coordinator?.reloadData()
            case 4:
                screens[index]?.coordinator?.applyUpdates { $0 }
            case 5:
                if let coordinator = screens[index]?.coordinator { coordinator.isPaused.toggle() }
            case 6:
                screens[index] = random.chance(0.5) ? nil : CoordinatorLifetimeTests.Screen(fetcher: fetcher)
            case 7:
                if let prefetcher {
                    prefetcher.startPrefetching(with: (0..<3).map { _ in someKey() })
                } else {
                    prefetcher = Prefetcher(fetcher: fetcher)
                }
            case 8:
                if random.chance(0.2) {
                    prefetcher = nil
                } else {
                    prefetcher?.stopPrefetching(with: (0..<3).map { _ in someKey() })
                }
            case 9:
                requests.append(AppRequest(key: someKey(), fetcher: fetcher, kind: random.next(below: 3)))
            case 10:
                if !requests.isEmpty, random.chance(0.3) { requests[random.next(below: requests.count)].cancel() }
            default:
                _ = gate.succeedAtRandom(upTo: 2, using: &random) { "photo \($0)" }
            }
            await Task.yield()
            // Then an app's plain prefetch that ended, ended with its value (the cache is never trimmed here)
            for request in requests where request.isPlainPrefetch && !request.cancelledByApp {
                if request.task?.isPending == false, fetcher.fetchedData(for: request.key) == nil {
                    Issue.record("seed \(seed): the app's prefetch of key \(request.key) was withdrawn")
                    request.cancelledByApp = true
                }
            }
        }

        // When every load lands
        for request in requests where !request.cancelledByApp && !request.isPlainPrefetch {
            await waitUntil("seed \(seed): key \(request.key) answered") {
                _ = gate.succeedAtRandom(upTo: 50, using: &random) { "photo \($0)" }
                return request.deliveries.count > 0
            }
        }

        // Then every request the app did not cancel ended with its value
        var checked = 0
        for request in requests where !request.cancelledByApp && !request.isPlainPrefetch {
            if case .success(let value) = request.deliveries.all.first {
                #expect(value == "photo \(request.key)")
            } else {
                Issue.record("seed \(seed): request of key \(request.key) ended \(request.deliveries.all)")
            }
            checked += 1
        }
        #expect(checked > 15, "seed \(seed): the run made too few requests to say anything")
        withExtendedLifetime((screens, prefetcher)) {}
    }
}
