#if Tools
import Foundation
import LookaheadHTTP
import Testing

@Suite("Feed server thumbnails", .timeLimit(.minutes(1)))
struct PNGValidityTests {
    @Test("thumbnails are valid PNGs of the requested size", arguments: [1, 17, 300])
    func thumbnailIsValidPNG(size: Int) async throws {
        try await withFeedServer { _, loader in
            let png = [UInt8](try await FeedClient(loader: loader).image(5, size: size))
            let decoded = try #require(DecodedPNG(png), "not a well-formed PNG")
            #expect(decoded.width == size && decoded.height == size)
            #expect(decoded.colourType == 2 && decoded.bitDepth == 8)
            // Stored deflate blocks: one filter byte and three bytes a pixel per row.
            #expect(decoded.inflatedCount == size * (1 + 3 * size))
        }
    }
}

/// Checks a PNG with stored (uncompressed) deflate blocks: signature, chunk
/// CRCs, IHDR, and the zlib stream's Adler-32.
struct DecodedPNG {
    var width = 0
    var height = 0
    var bitDepth = 0
    var colourType = 0
    var inflatedCount = 0

    init?(_ bytes: [UInt8]) {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        var position = 8
        var idat: [UInt8] = []
        var sawEnd = false
        func uint32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        while position + 12 <= bytes.count {
            let length = uint32(position)
            let typeAndData = Array(bytes[position + 4..<position + 8 + length])
            guard uint32(position + 8 + length) == Int(Self.crc32(typeAndData)) else { return nil }
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            let data = Array(typeAndData.dropFirst(4))
            switch type {
            case "IHDR":
                width = data[0..<4].reduce(0) { $0 << 8 | Int($1) }
                height = data[4..<8].reduce(0) { $0 << 8 | Int($1) }
                bitDepth = Int(data[8])
                colourType = Int(data[9])
            case "IDAT": idat += data
            case "IEND": sawEnd = true
            default: break
            }
            position += 12 + length
        }
        guard sawEnd, position == bytes.count, idat.count >= 6, (Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0 else {
            return nil
        }
        // Inflate stored blocks.
        var inflated: [UInt8] = []
        var at = 2
        while true {
            let header = idat[at]
            guard header & 0b110 == 0 else { return nil }  // BTYPE 00 only
            let length = Int(idat[at + 1]) | Int(idat[at + 2]) << 8
            let complement = Int(idat[at + 3]) | Int(idat[at + 4]) << 8
            guard length ^ 0xFFFF == complement else { return nil }
            inflated += idat[at + 5..<at + 5 + length]
            at += 5 + length
            if header & 1 == 1 { break }
        }
        let adler = idat[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
        guard adler == Self.adler32(inflated), at + 4 == idat.count else { return nil }
        inflatedCount = inflated.count
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
#endif
