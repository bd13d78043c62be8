#if Tools
import Foundation
import Lookahead

/// One story of the server's data set, derived from `(seed, id)` alone.
///
/// The JSON shape is Hacker News's item (`id`, `by`, `title`, `score`, `time`,
/// `url`, `descendants`, `type`), plus an optional `text` that pads the body
/// to a requested size. LookaheadHTTP's `FeedItem` decodes the same shape.
struct FeedItemRecord: Codable, Sendable, Hashable {
    var id: Int
    var by: String
    var title: String
    var score: Int
    var time: Int
    var url: String
    var descendants: Int
    var type: String
    var text: String?

    private static let adjectives = [
        "Fast", "Portable", "Lazy", "Deterministic", "Tiny", "Concurrent", "Incremental", "Honest",
        "Reactive", "Minimal", "Durable", "Practical", "Hidden", "Predictive", "Structured", "Quiet",
    ]
    private static let nouns = [
        "Prefetching", "Scrolling", "Caching", "Parsers", "Schedulers", "Compilers", "Databases", "Networks",
        "Thumbnails", "Allocators", "Queues", "Layouts", "Timers", "Sockets", "Renderers", "Feeds",
    ]
    private static let endings = [
        "in Swift", "on Linux", "Explained", "at Scale", "Without Locks", "for Everyone", "in 100 Lines",
        "Revisited", "Considered Harmful", "from Scratch", "in Practice", "the Hard Way",
    ]
    private static let authors = [
        "ada", "grace", "linus", "ken", "dmr", "barbara", "edsger", "donald", "margaret", "alan",
        "frances", "john", "radia", "tony", "leslie", "butler",
    ]
    /// 2023-11-14T22:13:20Z: the newest item's time; older ids are earlier.
    private static let baseTime = 1_700_000_000

    /// The record of item `id` in the data set of `seed`.
    ///
    /// - Complexity: O(1).
    init(id: Int, seed: UInt64) {
        let key = UInt64(bitPattern: Int64(id))
        func draw(_ index: UInt64) -> UInt64 { SeededRandom.bits(seed: seed, stream: .item, key: key, index: index) }
        func pick(_ list: [String], _ index: UInt64) -> String {
            list[SeededRandom.integer(in: 0...list.count - 1, draw(index))]
        }
        let title = "\(pick(Self.adjectives, 0)) \(pick(Self.nouns, 1)) \(pick(Self.endings, 2))"
        let slug = title.lowercased().split(separator: " ").joined(separator: "-")
        self.id = id
        self.by = "\(pick(Self.authors, 3))\(SeededRandom.integer(in: 1...99, draw(4)))"
        self.title = title
        self.score = SeededRandom.integer(in: 1...1_000, draw(5))
        self.time = Self.baseTime - id * 37 - SeededRandom.integer(in: 0...36, draw(6))
        self.url = "https://example.com/\(slug)/\(id)"
        self.descendants = SeededRandom.integer(in: 0...500, draw(7))
        self.type = "story"
        self.text = nil
    }

    /// The thumbnail colour of the item, as RGB.
    var colour: (red: UInt8, green: UInt8, blue: UInt8) {
        let bits = SeededRandom.mix(UInt64(bitPattern: Int64(id)) ^ UInt64(score))
        return (
            UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits >> 16)
        )
    }
}

extension FeedItemRecord {
    /// The item's JSON, padded with a `text` field to exactly `bytes` bytes
    /// when that is more than its natural size (`nil`: not padded).
    ///
    /// The padding is described, not built: see ``ResponseBytes``.
    ///
    /// - Complexity: O(1) in `bytes` (the record itself is encoded).
    func body(paddedTo bytes: Int?) -> ResponseBytes {
        var record = self
        record.text = nil
        let plain = FeedJSON.encode(record)
        // The record's other fields never contain `"text":"`: it is the text field's own key.
        record.text = ""
        return FeedJSON.padded(plain: plain, empty: FeedJSON.encode(record), field: "text", to: bytes)
    }
}
#endif
