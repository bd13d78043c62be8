// os_signpost intervals and events for a coordinator and its fetcher:
// compiled only where the `os` module exists (Apple platforms). Not
// compiled on Linux, where the project's CI runs: see the workflow in
// .github/workflows/apple.yml.

#if canImport(os)
import os

/// Reports planning, cache hits and loads to Instruments.
///
/// Loads come from the fetcher's event stream, read by one task for as
/// long as this object lives: each load is an interval from `started`
/// to `succeeded`, `failed` or `cancelled`.
@MainActor
final class FetchSignposts: PrefetchSignposting {
    private let signposter = OSSignposter(logHandle: OSLog(subsystem: "Lookahead", category: .pointsOfInterest))
    private var planning: OSSignpostIntervalState?
    private let reader: Task<Void, Never>

    init<Key: Hashable & Sendable, Value: Sendable>(fetcher: AsyncFetcher<Key, Value>) {
        let events = fetcher.events()
        reader = Task.detached(priority: .utility) {
            let signposter = OSSignposter(logHandle: OSLog(subsystem: "Lookahead", category: .pointsOfInterest))
            var loads: [Key: OSSignpostIntervalState] = [:]
            for await event in events {
                switch event {
                case .started(let key):
                    let id = signposter.makeSignpostID()
                    loads[key] = signposter.beginInterval(
                        "Load", id: id, "\(String(describing: key), privacy: .public)")
                case .succeeded(let key, _):
                    if let state = loads.removeValue(forKey: key) {
                        signposter.endInterval("Load", state, "succeeded")
                    }
                case .failed(let key, _, _):
                    if let state = loads.removeValue(forKey: key) {
                        signposter.endInterval("Load", state, "failed")
                    }
                case .cancelled(let key, _):
                    if let state = loads.removeValue(forKey: key) {
                        signposter.endInterval("Load", state, "cancelled")
                    }
                    signposter.emitEvent("Cancel")
                case .hedgeStarted:
                    signposter.emitEvent("Hedge")
                case .hedgeWon:
                    signposter.emitEvent("Hedge won")
                }
            }
        }
    }

    deinit {
        reader.cancel()
    }

    func planningBegan() {
        planning = signposter.beginInterval("Plan frame")
    }

    func planningEnded() {
        guard let planning else { return }
        signposter.endInterval("Plan frame", planning)
        self.planning = nil
    }

    func cacheHit() {
        signposter.emitEvent("Cache hit")
    }
}
#endif
