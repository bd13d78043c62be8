// The display requests of a coordinator's visible cells, kept by path: the
// bookkeeping PrefetchCoordinator (by ItemPath) and NestedPrefetchCoordinator
// (by NestedItemPath) share.

/// The display requests of visible cells, one per path.
///
/// A new request for a path replaces (and cancels) the one before it; a
/// request forgets itself when its completion runs, unless a newer one took
/// its place — the serial tells them apart.
struct DisplayRequestTable<Path: Hashable & Sendable> {
    private var requests: [Path: (serial: Int, request: FetchRequest)] = [:]
    private var nextSerial = 0

    /// Cancels the request at `path`, if any, and returns the serial of the one that replaces it.
    mutating func replace(at path: Path) -> Int {
        cancel(at: path)
        nextSerial += 1
        return nextSerial
    }

    /// Keeps `request`, made with `serial` from ``replace(at:)``, while it waits.
    mutating func insert(_ request: FetchRequest, at path: Path, serial: Int) {
        requests[path] = (serial, request)
    }

    /// The request made with `serial` completed: forgotten, unless a newer one replaced it.
    mutating func ended(at path: Path, serial: Int) {
        if requests[path]?.serial == serial { requests[path] = nil }
    }

    /// Withdraws the request at `path`: its completion gets `CancellationError`.
    mutating func cancel(at path: Path) {
        requests.removeValue(forKey: path)?.request.cancel()
    }

    /// Withdraws the requests whose paths `isWithdrawn` names.
    mutating func cancel(where isWithdrawn: (Path) -> Bool) {
        for path in requests.keys where isWithdrawn(path) { cancel(at: path) }
    }

    /// Withdraws every request.
    mutating func cancelAll() {
        for (_, entry) in requests { entry.request.cancel() }
        requests.removeAll()
    }

    /// Moves each request to its item's new path; withdraws those whose item is gone (`nil`).
    mutating func remap(_ newPath: (Path) -> Path?) {
        var moved: [Path: (serial: Int, request: FetchRequest)] = [:]
        for (path, entry) in requests {
            if let new = newPath(path) { moved[new] = entry } else { entry.request.cancel() }
        }
        requests = moved
    }

    /// Sets each waiting request's priority to what `priority` says for its path.
    func reprioritize(_ priority: (Path) -> FetchPriority) {
        for (path, entry) in requests { entry.request.priority = priority(path) }
    }

    /// The paths with a request waiting.
    var paths: Set<Path> { Set(requests.keys) }
}
