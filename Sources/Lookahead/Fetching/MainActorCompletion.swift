/// The completion of one main-actor request (``AsyncFetcher/requestDisplay(of:priority:completion:)``):
/// runs it once on the main actor, and lets a cancellation take it back until
/// it has run.
///
/// Why it can be taken back after the fetcher handed it its value: a cell
/// reused on the main actor cancels its request there, and must not then be
/// configured with the stale value already waiting in the queue.
@usableFromInline
final class MainActorCompletion<Value: Sendable>: CancellableDelivery {
    @usableFromInline
    typealias Completion = @MainActor @Sendable (Result<Value, any Error>) -> Void

    /// `nil` once taken: whoever takes it calls it, so it runs exactly once.
    @usableFromInline let completion: LockedValue<Completion?>
    @usableFromInline let queue: MainActorDeliveryQueue

    @inlinable
    init(_ completion: @escaping Completion, queue: MainActorDeliveryQueue) {
        self.completion = LockedValue(completion)
        self.queue = queue
    }

    /// Queues the completion with `result`; it runs unless cancelled first.
    @inlinable
    func deliver(_ result: Result<Value, any Error>) {
        queue.enqueue { self.take()?(result) }
    }

    @usableFromInline
    func cancelDelivery() {
        guard let completion = take() else { return }
        queue.enqueue { completion(.failure(CancellationError())) }
    }

    /// Takes the completion, once. It is released by the caller, after the lock.
    @inlinable
    func take() -> Completion? {
        completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
    }
}
