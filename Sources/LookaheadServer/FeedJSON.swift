#if Tools
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

    /// One page of the story list: `{"ids": [...], "limit": L, "offset": O, "total": T}`,
    /// with a `padding` string when asked for a size (see ``padded(plain:empty:field:to:)``).
    struct TopStoriesPage: Encodable {
        let ids: [Int]
        let limit: Int
        let offset: Int
        var padding: String?
        let total: Int
    }

    /// A body of exactly `bytes` bytes: `empty` (the value encoded with its
    /// string `field` set to `""`) with that field filled, or `plain` (encoded
    /// without it) when `bytes` is `nil` or not above what the field adds.
    ///
    /// The filler is described, not built: see ``ResponseBytes``.
    ///
    /// - Precondition: `empty` holds `"field":"` once, as its own key.
    static func padded(plain: [UInt8], empty: [UInt8], field: String, to bytes: Int?) -> ResponseBytes {
        // `"field":"",` is what the empty field adds.
        let overhead = empty.count - plain.count
        guard let bytes, bytes > plain.count + overhead else { return ResponseBytes(plain) }
        let marker = Array("\"\(field)\":\"".utf8)
        guard let start = empty.indices.first(where: { empty[$0...].starts(with: marker) }) else {
            preconditionFailure("FeedJSON: the encoded value has no \(field) field")
        }
        let split = start + marker.count
        return ResponseBytes(segments: [
            .bytes(Array(empty[..<split])), .filler(count: bytes - plain.count - overhead),
            .bytes(Array(empty[split...])),
        ])
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
#endif
