#if Tools
import Hummingbird

/// A request parameter that is missing or out of range: answered `400 Bad Request`.
struct BadParameter: Error, CustomStringConvertible {
    let description: String
}

/// Reads and checks the parameters of one request.
struct FeedQuery {
    let parameters: Parameters

    /// Limits the server enforces, documented on ``FeedServer``.
    static let maximumPageLimit = 500
    static let maximumPaddedBytes = 1_048_576
    static let imageSizes = 1...512
    static let defaultImageSize = 64
    static let maximumLatencyMilliseconds = 600_000

    /// The integer parameter `name` in `range`, `nil` if absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(BadParameter) -> Int? {
        guard let text = parameters.get(name) else { return nil }
        guard let value = Int(text) else {
            throw BadParameter(description: "parameter '\(name)' must be an integer, got '\(text)'")
        }
        guard range.contains(value) else {
            let bounds =
                range.upperBound == .max
                ? "at least \(range.lowerBound)" : "in \(range.lowerBound)...\(range.upperBound)"
            throw BadParameter(description: "parameter '\(name)' must be \(bounds), got \(value)")
        }
        return value
    }

    /// `latency_ms`: an exact latency for this request.
    func latency() throws(BadParameter) -> Duration? {
        try integer("latency_ms", in: 0...Self.maximumLatencyMilliseconds).map { .milliseconds($0) }
    }

    /// `fault`: a fault forced on this request.
    func fault() throws(BadParameter) -> InjectedFault? {
        guard let text = parameters.get("fault") else { return nil }
        guard let fault = InjectedFault(rawValue: text) else {
            let choices = InjectedFault.allCases.map(\.rawValue).joined(separator: ", ")
            throw BadParameter(description: "parameter 'fault' must be one of \(choices), got '\(text)'")
        }
        return fault
    }

    /// The item id in a path component, which must be `1...itemCount` (else `nil`: not found).
    static func itemID(_ text: String?) throws(BadParameter) -> Int {
        guard let text, let id = Int(text) else {
            throw BadParameter(description: "the item id must be an integer, got '\(text ?? "")'")
        }
        return id
    }
}
#endif
