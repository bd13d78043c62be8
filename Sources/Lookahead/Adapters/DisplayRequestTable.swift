// The display requests of a coordinator's cells, kept by the cell (or row)
// that asked: the bookkeeping PrefetchCoordinator and
// NestedPrefetchCoordinator share. A request belongs to its cell and its
// item's key, never to an index path: UIKit reports around updates with
// paths from before them, and a path names whatever item sits there now.

/// The display requests of a coordinator's cells: one per cell, for one key.
///
/// A cell that asks again for the key it already waits for keeps its
/// request (its load goes on; the new completion replaces the old one);
/// one that asks for another key — a reused cell — lets go of its old
/// request: silenced, kept until another cell asks for that key (a reload
/// hands cells their items in no promised order, so the cell that shows the
/// item now may ask after the one that showed it) or, unclaimed, until the
/// main actor's current turn — UIKit's layout pass — is over. Nothing another cell does, at whatever path, touches a cell's
/// request. A request forgets itself when its completion runs.
@MainActor
final class DisplayRequestTable<Key: Hashable & Sendable, Value: Sendable> {
    private struct Entry {
        var owner: ObjectIdentifier
        var key: Key
        var request: FetchTask
        let completion: CompletionBox
    }

    /// What a request's completion calls: replaced when its cell asks again
    /// for the same key, so that the latest configuration of the cell runs.
    @MainActor
    private final class CompletionBox {
        var call: @MainActor @Sendable (Result<Value, any Error>) -> Void
        init(_ call: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void) { self.call = call }
    }

    private var entries: [DisplayRequestID: Entry] = [:]
    private var idOfOwner: [ObjectIdentifier: DisplayRequestID] = [:]
    /// The requests cells let go of, by key: withdrawn once a cell asks for the key.
    private var letGo: [Key: Set<DisplayRequestID>] = [:]
    private var nextID = 0
    /// Told the request that was answered (not withdrawn nor let go of).
    var onEnded: ((DisplayRequestID) -> Void)?
    /// Told, once the turn that let them go is over, the requests let go of
    /// that no cell claimed: the driver withdraws them.
    var onUnclaimed: (([DisplayRequestID]) -> Void)?
    private var flushesLetGo = false

    // The coordinator went away: nobody is left to show what its cells asked for.
    deinit {
        for entry in entries.values { entry.request.cancel() }
    }

    /// What a cell's request came to.
    struct Outcome {
        /// The request, or `nil` without a key.
        var request: FetchTask?
        /// Its id while it waits (nil once answered, or without a key).
        var id: DisplayRequestID?
        /// Whether the cell was already waiting for this key: its request
        /// goes on, at the new priority.
        var isKept: Bool
        /// The cell's earlier request for another key, let go of: silenced,
        /// left for the driver to withdraw with its next frame.
        var letGo: DisplayRequestID?
        /// Requests other cells had let go of for this key, withdrawn now
        /// that this one holds its load: ids for the core to forget.
        var claimed: [DisplayRequestID] = []
        /// The id `priority` was asked with: the core's record of it ends
        /// at once if the request was answered from the cache (`id` nil).
        var asked: DisplayRequestID?
    }

    /// Starts a display request of `key` (none if `nil`) on `fetcher` for
    /// `owner`, unless `owner` already waits for `key`; replaces `owner`'s
    /// request for another key. `priority` is asked once, with the
    /// request's id, for the priority to ask at (or to move the kept one to).
    func request(
        for owner: AnyObject, key: Key?, from fetcher: AsyncFetcher<Key, Value>,
        priority: (DisplayRequestID) -> FetchPriority,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> Outcome {
        let ownerID = ObjectIdentifier(owner)
        let earlier = idOfOwner[ownerID]
        if let earlier, let entry = entries[earlier], entry.key == key, entry.request.isPending {
            entry.completion.call = completion
            let priority = priority(earlier)
            if entry.request.priority != priority { entry.request.priority = priority }
            return Outcome(request: entry.request, id: earlier, isKept: true)
        }
        // The new request first, then those let go of for its key go: a load
        // both share is never stopped between.
        var outcome = Outcome(request: nil, id: nil, isKept: false)
        if let key {
            nextID += 1
            let id = DisplayRequestID(nextID)
            let box = CompletionBox(completion)
            let request = fetcher.requestDisplay(of: key, priority: priority(id)) { [weak self] result in
                self?.ended(id)
                box.call(result)
            }
            outcome.request = request
            outcome.asked = id
            if request.isPending {
                entries[id] = Entry(owner: ownerID, key: key, request: request, completion: box)
                idOfOwner[ownerID] = id
                outcome.id = id
            }
        }
        if let key, let ids = letGo[key] {
            for id in ids.sorted() {
                forget(id)?.request.cancel()
                outcome.claimed.append(id)
            }
        }
        if let earlier, let entry = entries[earlier] {
            entry.completion.call = { _ in }
            letGo[entry.key, default: []].insert(earlier)
            outcome.letGo = earlier
            flushLetGoAfterThisTurn()
        }
        if outcome.id == nil, idOfOwner[ownerID] == earlier { idOfOwner[ownerID] = nil }
        return outcome
    }

    private func flushLetGoAfterThisTurn() {
        guard !flushesLetGo else { return }
        flushesLetGo = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            flushesLetGo = false
            let unclaimed = letGo.values.flatMap { $0 }.sorted()
            if !unclaimed.isEmpty { onUnclaimed?(unclaimed) }
        }
    }

    /// The request `id` was answered: forgotten.
    private func ended(_ id: DisplayRequestID) {
        guard forget(id) != nil else { return }
        onEnded?(id)
    }

    /// The waiting request of `owner`, if any.
    func id(of owner: AnyObject) -> DisplayRequestID? {
        idOfOwner[ObjectIdentifier(owner)]
    }

    /// The key request `id` asked for.
    func key(of id: DisplayRequestID) -> Key? {
        entries[id]?.key
    }

    /// The request `id`.
    func request(_ id: DisplayRequestID) -> FetchTask? {
        entries[id]?.request
    }

    /// Withdraws request `id`: its completion gets `CancellationError`.
    func cancel(_ id: DisplayRequestID) {
        forget(id)?.request.cancel()
    }

    /// Adds the withdrawal of the requests `ids` to `changes`: a frame's
    /// withdrawals in its batch rather than a lock round trip each.
    func withdraw(_ ids: [DisplayRequestID], into changes: inout FetchRequestChanges) {
        for id in ids {
            if let entry = forget(id) { changes.withdrawn.append(entry.request) }
        }
    }

    @discardableResult
    private func forget(_ id: DisplayRequestID) -> Entry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        if idOfOwner[entry.owner] == id { idOfOwner[entry.owner] = nil }
        if !letGo.isEmpty, letGo[entry.key]?.remove(id) != nil, letGo[entry.key]?.isEmpty == true {
            letGo[entry.key] = nil
        }
        return entry
    }

    /// Withdraws every request.
    func cancelAll() {
        let withdrawn = entries.values
        entries.removeAll()
        idOfOwner.removeAll()
        letGo.removeAll()
        for entry in withdrawn { entry.request.cancel() }
    }

    /// Adds the re-ranking of the waiting requests `ranks` names to `changes`.
    func add(_ ranks: [(id: DisplayRequestID, priority: FetchPriority)], to changes: inout FetchRequestChanges) {
        for (id, priority) in ranks {
            if let request = entries[id]?.request { changes.priorities.append((request, priority)) }
        }
    }

    /// The waiting requests.
    var requests: [FetchTask] { entries.values.map(\.request) }

    /// The waiting request of `owner`, with its key.
    func request(of owner: AnyObject) -> (key: Key, request: FetchTask)? {
        id(of: owner).flatMap { entries[$0] }.map { ($0.key, $0.request) }
    }

    /// The ids of the waiting requests, with their keys.
    var keys: [DisplayRequestID: Key] { entries.mapValues(\.key) }

    /// How many requests wait (and owners are kept for).
    var count: Int { entries.count + idOfOwner.count }
}
