import Foundation
import Lookahead

/// A re-creation of the `AsyncFetcher` in Apple's "Prefetching collection view
/// data" sample, kept as the baseline that Lookahead's fetcher is measured against.
///
/// BASELINE ONLY. This type lives with the benchmarks, not in the library, and
/// deliberately keeps the sample's design, costs and bugs so that the comparison
/// is honest:
/// - every call hops onto a serial `OperationQueue` that guards the map of
///   completion handlers;
/// - coalescing scans `fetchQueue.operations` (a copy of the whole queue) for a
///   live operation with the same identifier, so a call costs O(queued loads);
/// - `fetchQueue` keeps `OperationQueue`'s default settings, so it has no
///   concurrency limit of its own;
/// - `cancelFetch(_:)` drops every completion handler waiting for the key, so a
///   display request that is waiting when its prefetch is cancelled never
///   completes;
/// - a cancelled load that has already started runs to its end, and its value
///   is thrown away.
///
/// It is `@unchecked Sendable` because the sample relies on the serial queue,
/// not on the compiler, for safety: `completionHandlers` is only touched from
/// `serialAccessQueue`, `NSCache` and `OperationQueue` are thread-safe, and the
/// benchmark's own counters sit behind a lock.
public final class SampleAsyncFetcher<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    /// A completion handler, as in the sample: `nil` when the load produced nothing.
    public typealias CompletionHandler = @Sendable (Value?) -> Void

    /// Guards `completionHandlers`; runs one operation at a time.
    private let serialAccessQueue = OperationQueue()
    /// Runs the loads, with `OperationQueue`'s default settings (as the sample).
    private let fetchQueue = OperationQueue()
    /// Only read or written on `serialAccessQueue`.
    private var completionHandlers: [Key: [CompletionHandler]] = [:]
    private let cache = NSCache<CacheKey<Key>, CacheValue<Value>>()
    private let load: @Sendable (Key) -> Value
    /// Benchmark instrumentation, not part of the sample's design.
    private let ledger: CancellationLedger<Key>

    /// Creates a fetcher whose loads call `load` synchronously on `fetchQueue`.
    public init(tracksCancellations: Bool = true, load: @escaping @Sendable (Key) -> Value) {
        self.load = load
        ledger = CancellationLedger(tracksCancellations: tracksCancellations)
        serialAccessQueue.maxConcurrentOperationCount = 1
    }

    /// Asks for the value of `key`, calling `completion` (if any) once it is loaded.
    public func fetchAsync(_ key: Key, completion: CompletionHandler? = nil) {
        serialAccessQueue.addOperation {
            if let completion {
                self.completionHandlers[key, default: []].append(completion)
            }
            self.fetchData(for: key)
        }
    }

    /// The cached value of `key`, if it has been loaded.
    public func fetchedData(for key: Key) -> Value? {
        cache.object(forKey: CacheKey(key))?.value
    }

    /// Cancels the load of `key` and, as the sample does, forgets its completion handlers.
    public func cancelFetch(_ key: Key) {
        ledger.recordCancel(of: key)
        serialAccessQueue.addOperation {
            self.fetchQueue.isSuspended = true
            defer { self.fetchQueue.isSuspended = false }
            self.operation(for: key)?.cancel()
            self.completionHandlers[key] = nil
        }
    }

    /// Blocks until both queues are empty.
    ///
    /// A finished load enqueues its completion handlers on the serial queue, and
    /// a serial operation may enqueue a load, so the two are drained in turn until
    /// neither has anything left.
    public func waitUntilIdle() {
        repeat {
            serialAccessQueue.waitUntilAllOperationsAreFinished()
            fetchQueue.waitUntilAllOperationsAreFinished()
        } while serialAccessQueue.operationCount > 0 || fetchQueue.operationCount > 0
    }

    /// Loads that ran to their end although `cancelFetch(_:)` had been called for their key.
    public var loadsCompletedAfterCancel: Int { ledger.completedAfterCancel }

    /// Loads whose operation reached `main()` (a load cancelled before it starts never does).
    public var loadsStarted: Int { ledger.started }

    // MARK: - On serialAccessQueue

    private func fetchData(for key: Key) {
        // An operation for this key is already queued or running: it will call the handlers.
        guard operation(for: key) == nil else { return }

        if let value = fetchedData(for: key) {
            invokeCompletionHandlers(for: key, with: value)
        } else {
            let operation = FetchOperation(key: key, load: load, ledger: ledger)
            // Like the sample, the block keeps the fetcher alive until the load has finished.
            operation.completionBlock = { [weak operation] in
                guard let value = operation?.fetchedValue else { return }
                self.cache.setObject(CacheValue(value), forKey: CacheKey(key))
                self.serialAccessQueue.addOperation {
                    self.invokeCompletionHandlers(for: key, with: value)
                }
            }
            fetchQueue.addOperation(operation)
        }
    }

    /// The sample's linear scan: `operations` copies the queue on every call.
    private func operation(for key: Key) -> FetchOperation<Key, Value>? {
        for case let operation as FetchOperation<Key, Value> in fetchQueue.operations
        where !operation.isCancelled && operation.key == key {
            return operation
        }
        return nil
    }

    private func invokeCompletionHandlers(for key: Key, with value: Value) {
        let handlers = completionHandlers.removeValue(forKey: key) ?? []
        for handler in handlers {
            handler(value)
        }
    }
}

/// The sample's `AsyncFetcherOperation`: loads one key, then keeps the value
/// unless it was cancelled meanwhile.
private final class FetchOperation<Key: Hashable & Sendable, Value: Sendable>: Operation, @unchecked Sendable {
    let key: Key
    private let load: @Sendable (Key) -> Value
    private let ledger: CancellationLedger<Key>
    /// Written in `main()`, read in `completionBlock`, which runs after `main()` returns.
    private(set) var fetchedValue: Value?

    init(key: Key, load: @escaping @Sendable (Key) -> Value, ledger: CancellationLedger<Key>) {
        self.key = key
        self.load = load
        self.ledger = ledger
    }

    override func main() {
        ledger.recordStart()
        // Like the sample, the load itself does not look at `isCancelled`.
        let value = load(key)
        ledger.recordCompletion(of: key)
        guard !isCancelled else { return }
        fetchedValue = value
    }
}

/// `NSCache` needs object keys that compare by value.
private final class CacheKey<Key: Hashable>: NSObject {
    let key: Key

    init(_ key: Key) {
        self.key = key
    }

    override var hash: Int { key.hashValue }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CacheKey<Key> else { return false }
        return key == other.key
    }
}

/// `NSCache` needs object values.
private final class CacheValue<Value>: NSObject {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
