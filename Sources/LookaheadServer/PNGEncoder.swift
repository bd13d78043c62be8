/// Writes truecolour PNG images without compression.
///
/// Thumbnails only need to be valid and of a known size, not small, so the
/// zlib stream uses stored (uncompressed) deflate blocks: no compressor to
/// get wrong, and the byte count is a simple function of the size.
#if Tools
enum PNGEncoder {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A `width × height` 8-bit RGB image whose pixel at `(x, y)` is `pixel(x, y)`.
    ///
    /// - Precondition: `width >= 1`, `height >= 1`.
    /// - Complexity: O(width × height).
    static func encode(
        width: Int, height: Int, pixel: (_ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)
    ) -> [UInt8] {
        precondition(width >= 1 && height >= 1, "PNG dimensions must be positive, got \(width)×\(height)")
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity(height * (1 + 3 * width))
        for y in 0..<height {
            scanlines.append(0)  // filter type None
            for x in 0..<width {
                let (red, green, blue) = pixel(x, y)
                scanlines.append(red)
                scanlines.append(green)
                scanlines.append(blue)
            }
        }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // bit depth 8, colour type RGB, deflate, adaptive filtering, no interlace

        var png = signature
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlibStored(scanlines))
        png.appendChunk("IEND", [])
        return png
    }

    /// A zlib stream of stored deflate blocks holding `data`, with its Adler-32.
    ///
    /// - Complexity: O(`data.count`).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no dictionary; 0x7801 % 31 == 0
        let blockSize = 65_535
        var start = 0
        repeat {
            let end = min(start + blockSize, data.count)
            let length = UInt16(end - start)
            stream.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE = 00 (stored)
            stream.append(UInt8(length & 0xFF))
            stream.append(UInt8(length >> 8))
            stream.append(UInt8(~length & 0xFF))
            stream.append(UInt8(~length >> 8))
            stream += data[start..<end]
            start = end
        } while start < data.count
        stream.appendBigEndian(adler32(data))
        return stream
    }

    /// The Adler-32 checksum zlib streams end with.
    ///
    /// - Complexity: O(`data.count`).
    static func adler32(_ data: some Sequence<UInt8>) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// The CRC-32 (ISO 3309, polynomial 0xEDB88320) each PNG chunk ends with.
    ///
    /// - Complexity: O(`data.count`).
    static func crc32(_ data: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24))
        append(UInt8((value >> 16) & 0xFF))
        append(UInt8((value >> 8) & 0xFF))
        append(UInt8(value & 0xFF))
    }

    /// Appends a chunk: length, type, data, and the CRC-32 of type and data.
    fileprivate mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let typeAndData = Array(type.utf8) + data
        self += typeAndData
        appendBigEndian(PNGEncoder.crc32(typeAndData))
    }
}
#endif
