// The display requests of a coordinator's visible cells, kept by path: the
// bookkeeping PrefetchCoordinator (by ItemPath) and NestedPrefetchCoordinator
// (by NestedItemPath) share.

/// The display requests of visible cells, one per path.
///
/// A new request for a path replaces (and cancels) the one before it; a
/// request forgets itself when its completion runs, wherever a batch update
/// moved it, unless a newer one took its place — the serial tells them apart.
@MainActor
final class DisplayRequestTable<Path: Hashable & Sendable> {
    private var requests: [Path: (serial: Int, request: FetchTask)] = [:]
    /// The path of each waiting request, by serial: its completion captured
    /// the path it was made at, which a batch update may since have moved.
    private var pathOfSerial: [Int: Path] = [:]
    private var nextSerial = 0
    /// Told the path of a request that was answered (not withdrawn nor replaced).
    var onEnded: ((Path) -> Void)?

    // The coordinator went away: nobody is left to show what its cells asked for.
    deinit {
        for entry in requests.values { entry.request.cancel() }
    }

    /// Starts a display request of `key` (none if `nil`) on `fetcher` for
    /// the cell at `path`, replacing the one before it; kept while it waits.
    ///
    /// - Returns: the request, or `nil` without a key.
    func request<Key: Hashable & Sendable, Value: Sendable>(
        at path: Path, key: Key?, from fetcher: AsyncFetcher<Key, Value>, priority: FetchPriority,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        let serial = replace(at: path)
        guard let key else { return nil }
        let request = fetcher.fetchOnMainActor(key, priority: priority) { [weak self] result in
            self?.ended(serial: serial)
            completion(result)
        }
        if request.isPending {
            requests[path] = (serial, request)
            pathOfSerial[serial] = path
        }
        return request
    }

    /// Cancels the request at `path`, if any, and returns the serial of the one that replaces it.
    private func replace(at path: Path) -> Int {
        cancel(at: path)
        nextSerial += 1
        return nextSerial
    }

    /// The request made with `serial` completed: forgotten, unless a newer one replaced it.
    private func ended(serial: Int) {
        guard let path = pathOfSerial.removeValue(forKey: serial) else { return }
        guard requests[path]?.serial == serial else { return }
        requests[path] = nil
        onEnded?(path)
    }

    /// Withdraws the request at `path`: its completion gets `CancellationError`.
    func cancel(at path: Path) {
        forget(at: path)?.cancel()
    }

    /// Adds the withdrawal of the requests at `paths` to `changes`: a
    /// frame's withdrawals in its batch rather than a lock round trip each.
    func withdraw(at paths: [Path], into changes: inout FetchRequestChanges) {
        for path in paths {
            if let request = forget(at: path) { changes.withdrawn.append(request) }
        }
    }

    /// Forgets the request at `path`, if any, and returns it.
    private func forget(at path: Path) -> FetchTask? {
        guard let entry = requests.removeValue(forKey: path) else { return nil }
        pathOfSerial[entry.serial] = nil
        return entry.request
    }

    /// Withdraws the requests whose paths `isWithdrawn` names.
    func cancel(where isWithdrawn: (Path) -> Bool) {
        for path in requests.keys where isWithdrawn(path) { cancel(at: path) }
    }

    /// Withdraws every request.
    func cancelAll() {
        let withdrawn = requests.values
        requests.removeAll()
        pathOfSerial.removeAll()
        for entry in withdrawn { entry.request.cancel() }
    }

    /// Moves each request to its item's new path; withdraws those whose item is gone (`nil`).
    func remap(_ newPath: (Path) -> Path?) {
        var moved: [Path: (serial: Int, request: FetchTask)] = [:]
        var withdrawn: [FetchTask] = []
        pathOfSerial.removeAll(keepingCapacity: true)
        for (path, entry) in requests {
            if let new = newPath(path) {
                moved[new] = entry
                pathOfSerial[entry.serial] = new
            } else {
                withdrawn.append(entry.request)
            }
        }
        requests = moved
        for request in withdrawn { request.cancel() }
    }

    /// The request waiting at `path`, if any.
    func request(at path: Path) -> FetchTask? {
        requests[path]?.request
    }

    /// Adds the re-ranking of the waiting requests `ranks` names to `changes`.
    func add(_ ranks: [(path: Path, priority: FetchPriority)], to changes: inout FetchRequestChanges) {
        for (path, priority) in ranks {
            if let request = requests[path]?.request { changes.priorities.append((request, priority)) }
        }
    }

    /// The paths with a request waiting.
    var paths: Set<Path> { Set(requests.keys) }

    /// How many requests wait (and serials are kept for).
    var count: Int { requests.count + pathOfSerial.count }
}
