/// A response body as a few segments, turned into bytes a chunk at a time
/// while it is written.
///
/// Why not `[UInt8]`: a padded item is up to 1 MiB, and hundreds of requests
/// may be answered at once; a body built whole and then written pins all of
/// it until the client has read it. Here the padding is a repeated pattern
/// described by its length, so a response holds one chunk at a time.
#if Tools
struct ResponseBytes: Sendable, Equatable {
    /// A run of the body.
    enum Segment: Sendable, Equatable {
        /// These bytes.
        case bytes([UInt8])
        /// `count` bytes of ``ResponseBytes/fillerPattern``, repeated from its start.
        case filler(count: Int)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .filler(let count): count
            }
        }
    }

    /// The text padded items repeat: plain ASCII that needs no escaping in JSON.
    static let fillerPattern = Array("Lorem ipsum dolor sit amet consectetur adipiscing elit ".utf8)

    /// The runs, in order.
    private(set) var segments: [Segment]
    /// The body's length in bytes.
    let count: Int

    /// A body of `segments`, in order.
    init(segments: [Segment]) {
        self.segments = segments.filter { $0.count > 0 }
        count = segments.reduce(0) { $0 + $1.count }
    }

    /// A body of these bytes.
    init(_ bytes: [UInt8]) {
        self.init(segments: [.bytes(bytes)])
    }

    /// The first `length` bytes (all of them if the body is shorter).
    ///
    /// - Complexity: O(segments).
    func prefix(_ length: Int) -> ResponseBytes {
        var rest = max(0, length)
        var kept: [Segment] = []
        for segment in segments where rest > 0 {
            switch segment {
            case .bytes(let bytes): kept.append(.bytes(Array(bytes.prefix(rest))))
            case .filler(let count): kept.append(.filler(count: min(count, rest)))
            }
            rest -= min(segment.count, rest)
        }
        return ResponseBytes(segments: kept)
    }

    /// `first`, then `second`.
    static func + (first: ResponseBytes, second: ResponseBytes) -> ResponseBytes {
        ResponseBytes(segments: first.segments + second.segments)
    }

    /// The bytes in `range`, which must lie within `0...count`.
    ///
    /// - Complexity: O(segments + `range.count`).
    func bytes(in range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) outside 0..<\(count)")
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        var segmentStart = 0
        for segment in segments {
            let segmentEnd = segmentStart + segment.count
            let start = max(range.lowerBound, segmentStart)
            let end = min(range.upperBound, segmentEnd)
            if start < end {
                switch segment {
                case .bytes(let bytes):
                    result += bytes[(start - segmentStart)..<(end - segmentStart)]
                case .filler:
                    let pattern = Self.fillerPattern
                    for offset in (start - segmentStart)..<(end - segmentStart) {
                        result.append(pattern[offset % pattern.count])
                    }
                }
            }
            segmentStart = segmentEnd
            if segmentStart >= range.upperBound { break }
        }
        return result
    }

    /// Every byte: for tests and small bodies.
    var allBytes: [UInt8] { bytes(in: 0..<count) }
}
#endif
