#if Tools
public import Lookahead

/// Why an ``HTTPLoader`` request failed, naming the item or URL.
public enum HTTPLoaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What a request was for: the item, if the caller named one, and the URL.
    public struct Subject: Sendable, Hashable, CustomStringConvertible {
        /// The URL requested.
        public var url: String
        /// The item the caller named, if any.
        public var item: String?

        /// Creates a subject.
        public init(url: String, item: String? = nil) {
            self.url = url
            self.item = item
        }

        /// `item 42`, or the URL when no item was named.
        public var description: String { item.map { "item \($0)" } ?? url }
    }

    /// The server answered with a status outside 200...299; `message` is the
    /// start of its body.
    case status(Int, subject: Subject, message: String)
    /// The body is larger than the configured maximum; it was not read further.
    case responseTooLarge(limit: Int, subject: Subject)
    /// The body could not be decoded (not JSON, wrong shape, wrong item).
    case malformedBody(subject: Subject, reason: String)
    /// The request did not finish within the configured timeout.
    case timedOut(after: Duration, subject: Subject)
    /// The connection ended before the whole body arrived.
    case truncatedBody(subject: Subject, received: Int, reason: String)
    /// The server closed a pooled keep-alive connection before answering.
    case connectionClosed(subject: Subject)
    /// The connection failed (refused, reset, …).
    case transport(subject: Subject, reason: String)
    /// The request could not be made: a bad URL or parameter.
    case invalidRequest(String)

    /// Whether trying again may succeed: timeouts, 5xx, 408, 429, truncated
    /// bodies and connection failures. Not 4xx, malformed or oversized
    /// bodies, or invalid requests.
    public var isTransient: Bool {
        switch self {
        case .status(let code, _, _): code >= 500 || code == 408 || code == 429
        case .timedOut, .truncatedBody, .connectionClosed, .transport: true
        case .responseTooLarge, .malformedBody, .invalidRequest: false
        }
    }

    public var description: String {
        switch self {
        case .status(let code, let subject, let message):
            "status \(code) for \(subject)" + (message.isEmpty ? "" : ": \(message)")
        case .responseTooLarge(let limit, let subject):
            "response for \(subject) exceeds \(Self.grouped(limit)) bytes"
        case .malformedBody(let subject, let reason):
            "\(subject): \(reason)"
        case .timedOut(let after, let subject):
            "\(subject): timed out after \(Self.seconds(after))"
        case .truncatedBody(let subject, let received, let reason):
            "\(subject): the connection ended after \(Self.grouped(received)) bytes of the body (\(reason))"
        case .connectionClosed(let subject):
            "\(subject): the server closed the connection before answering"
        case .transport(let subject, let reason):
            "\(subject): connection failed: \(reason)"
        case .invalidRequest(let reason):
            "invalid request: \(reason)"
        }
    }

    /// `8388608` as `8,388,608`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// `10 s`, `1.5 s`, `250 ms`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        if milliseconds < 1_000 { return "\(Int(milliseconds.rounded())) ms" }
        let seconds = milliseconds / 1_000
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// A transient ``HTTPLoaderError`` marked for retry by drivers that retry
/// only ``TransientError``s, such as `Pager`: ``FeedClient/pageLoader``
/// throws it.
public struct TransientHTTPLoaderError: TransientError, Sendable, Hashable, CustomStringConvertible {
    /// The underlying failure.
    public var error: HTTPLoaderError

    /// Wraps a transient failure.
    public init(_ error: HTTPLoaderError) {
        self.error = error
    }

    public var description: String { error.description }
}
#endif
