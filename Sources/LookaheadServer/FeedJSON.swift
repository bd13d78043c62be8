import Foundation

/// The feed server's JSON bodies, encoded through `Codable`.
///
/// Keys are sorted and slashes left unescaped, so a body is the same bytes on
/// every run and platform (the item bodies' padding relies on it).
enum FeedJSON {
    /// An error response's body: `{"error": message}`.
    struct ErrorBody: Encodable {
        let error: String
    }

    /// One page of the story list: `{"ids": [...], "limit": L, "offset": O, "total": T}`.
    struct TopStoriesPage: Encodable {
        let ids: [Int]
        let limit: Int
        let offset: Int
        let total: Int
    }

    /// `value` as JSON bytes.
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            // Only strings, integers and arrays of them are encoded: that cannot fail.
            preconditionFailure("FeedJSON: \(error)")
        }
    }
}
