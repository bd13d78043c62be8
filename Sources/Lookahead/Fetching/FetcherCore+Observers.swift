/// The observers of ``FetcherCore``: who is told about every load attempt
/// (``FetchEvent``), and the loader run with them told.
extension FetcherCore {
    /// Whether any observer is registered: read by every load, under the
    /// observers' own lock, never the fetcher's.
    @usableFromInline var hasObservers: Bool {
        observers.withLock { !$0.handlers.isEmpty }
    }

    /// Registers `handler` for every load attempt's events.
    func observe(_ handler: @escaping @Sendable (FetchEvent<Key>) -> Void) -> FetchObservation {
        let id = observers.withLock { observers in
            let id = observers.next
            observers.next += 1
            observers.handlers[id] = handler
            return id
        }
        return FetchObservation { [weak self] in
            guard let self else { return }
            // The handler is released after the lock: its captures may deinit
            // another observation of this fetcher, which takes the same lock.
            let handler = self.observers.withLock { observers in
                observers.handlers.removeValue(forKey: id)
            }
            withExtendedLifetime(handler) {}
        }
    }

    /// Calls every observer with `event`, outside any lock.
    @usableFromInline
    func emit(_ event: FetchEvent<Key>) {
        let handlers = observers.withLock { Array($0.handlers.values) }
        for handler in handlers { handler(event) }
    }

    /// Runs the loader for `job`, telling the observers when it starts and how it ended.
    @usableFromInline
    func observedLoad(_ job: Job) async -> Result<Value, any Error> {
        let key = job.key
        emit(.started(key))
        let elapsed = startStopwatch()
        let result: Result<Value, any Error>
        do {
            result = .success(try await load(key, job.context))
        } catch {
            result = .failure(error)
        }
        let duration = elapsed()
        switch result {
        case .success where Task.isCancelled, .failure(is CancellationError):
            emit(.cancelled(key, duration: duration))
        case .success:
            emit(.succeeded(key, duration: duration))
        case .failure(let error):
            emit(.failed(key, error: error, duration: duration))
        }
        return result
    }
}
