// The session delegate of a URLSessionLoader: each task's bytes gathered as
// they arrive, the size limit enforced on them, and the outcome handed to the
// load waiting for it.

import Foundation
import Lookahead

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The running tasks of one ``URLSessionLoader`` and what each has received.
///
/// URLSession calls the delegate on its own queue; every method keeps its
/// lock only to update the table and resumes continuations after it.
final class URLSessionLoaderTasks: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Pending {
        let continuation: CheckedContinuation<Data, any Error>
        var data = Data()
        var response: HTTPURLResponse?
        /// Set when the loader itself ended the task (the size limit).
        var failure: URLSessionLoaderError?
    }

    private let maximumResponseBytes: Int
    private let pending = LockedValue<[Int: Pending]>([:])

    init(maximumResponseBytes: Int) {
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Resumes `handle`'s task; `continuation` gets its outcome.
    func start(_ handle: SendableTask, continuation: CheckedContinuation<Data, any Error>) {
        pending.withLock { $0[handle.task.taskIdentifier] = Pending(continuation: continuation) }
        handle.task.resume()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let limit = maximumResponseBytes
        let url = dataTask.originalRequest?.url
        let refuses = pending.withLock { pending -> Bool in
            pending[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            // A declared length over the limit is refused before a byte of it.
            guard response.expectedContentLength > Int64(limit) else { return false }
            pending[dataTask.taskIdentifier]?.failure = .responseTooLarge(limit: limit, url: url)
            return true
        }
        completionHandler(refuses ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = maximumResponseBytes
        let url = dataTask.originalRequest?.url
        let exceeded = pending.withLock { pending -> Bool in
            guard var entry = pending[dataTask.taskIdentifier], entry.failure == nil else { return false }
            if entry.data.count + data.count > limit {
                entry.failure = .responseTooLarge(limit: limit, url: url)
                entry.data = Data()
                pending[dataTask.taskIdentifier] = entry
                return true
            }
            entry.data.append(data)
            pending[dataTask.taskIdentifier] = entry
            return false
        }
        if exceeded { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        entry.continuation.resume(with: Self.outcome(of: entry, error: error, url: task.originalRequest?.url))
    }

    /// What a task that ended with `error` (or none) delivers.
    private static func outcome(of entry: Pending, error: (any Error)?, url: URL?) -> Result<Data, any Error> {
        if let failure = entry.failure { return .failure(failure) }
        if let error {
            return .failure(URLSessionLoaderError(error, url: url) ?? CancellationError())
        }
        guard let response = entry.response else { return .failure(URLSessionLoaderError.notHTTP(url: url)) }
        guard (200...299).contains(response.statusCode) else {
            return .failure(
                URLSessionLoaderError.status(
                    response.statusCode, url: url,
                    retryAfter: URLSessionLoaderError.retryAfter(response.value(forHTTPHeaderField: "Retry-After"))))
        }
        return .success(entry.data)
    }
}
