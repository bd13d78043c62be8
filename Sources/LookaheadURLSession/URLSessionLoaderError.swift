// Why a URLSessionLoader request failed, and whether trying again may help.

public import Foundation
public import Lookahead

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a ``URLSessionLoader`` request failed.
///
/// A ``TransientError`` that says per value whether a retry may help
/// (``isTransient``): an ``AsyncFetcher`` made with its default classifier
/// retries a 503 and a timeout, not a 404, and waits the `Retry-After` of a
/// 429 or a 503 (``retryAfter``).
public enum URLSessionLoaderError: TransientError, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a status outside 200...299, and maybe how
    /// long to wait before asking again (`Retry-After`, in seconds).
    case status(Int, url: URL?, retryAfter: Duration?)
    /// The body is larger than the configured maximum; it was not read further.
    case responseTooLarge(limit: Int, url: URL?)
    /// Nothing arrived for the configured timeout.
    case timedOut(url: URL?)
    /// A prefetch was not sent over a constrained network (Low Data Mode).
    case constrainedNetwork(url: URL?)
    /// The connection failed: `code` is the `URLError.Code`'s raw value.
    case transport(code: Int, url: URL?, reason: String)
    /// The response was not HTTP.
    case notHTTP(url: URL?)

    /// Whether another attempt may succeed: 5xx, 408, 429, timeouts and
    /// connection failures; not other statuses, an oversized body, Low Data
    /// Mode (a display request asks again, and is allowed), or a response
    /// that is not HTTP.
    public var isTransient: Bool {
        switch self {
        case .status(let code, _, _): code >= 500 || code == 408 || code == 429
        case .timedOut, .transport: true
        case .responseTooLarge, .constrainedNetwork, .notHTTP: false
        }
    }

    /// The server's `Retry-After`, for a status that gave one.
    public var retryAfter: Duration? {
        guard case .status(_, _, let retryAfter) = self else { return nil }
        return retryAfter
    }

    public var description: String {
        let url: URL? =
            switch self {
            case .status(_, let url, _), .responseTooLarge(_, let url), .timedOut(let url),
                .constrainedNetwork(let url), .transport(_, let url, _), .notHTTP(let url):
                url
            }
        let subject = url.map { " for \($0.absoluteString)" } ?? ""
        switch self {
        case .status(let code, _, let retryAfter):
            return "status \(code)\(subject)" + (retryAfter.map { " (retry after \($0))" } ?? "")
        case .responseTooLarge(let limit, _):
            return "response\(subject) exceeds \(limit) bytes"
        case .timedOut:
            return "timed out\(subject)"
        case .constrainedNetwork:
            return "not sent over a constrained network (Low Data Mode)\(subject): a prefetch"
        case .transport(let code, _, let reason):
            return "connection failed\(subject): \(reason) (URLError \(code))"
        case .notHTTP:
            return "not an HTTP response\(subject)"
        }
    }

    /// The error a failed task's `error` stands for; `nil` for a cancellation.
    init?(_ error: any Error, url: URL?) {
        guard let urlError = error as? URLError else {
            self = .transport(code: 0, url: url, reason: "\(error)")
            return
        }
        switch urlError.code {
        case .cancelled:
            return nil
        case .timedOut:
            self = .timedOut(url: url)
        default:
            #if canImport(Darwin)
            if urlError.networkUnavailableReason == .constrained {
                self = .constrainedNetwork(url: url)
                return
            }
            #endif
            self = .transport(code: urlError.code.rawValue, url: url, reason: urlError.localizedDescription)
        }
    }

    /// `Retry-After` in seconds (the form servers send with 429 and 503); an
    /// HTTP date or anything else is ignored.
    static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }
}
