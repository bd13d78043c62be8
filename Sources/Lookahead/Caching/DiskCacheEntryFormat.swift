import Foundation

/// The layout of a disk cache entry's file: a 48-byte header, then the payload.
///
/// | offset | size | field                                          |
/// |-------:|-----:|------------------------------------------------|
/// |      0 |    4 | magic, the ASCII bytes `LKDC`                  |
/// |      4 |    4 | format version, big-endian (currently 1)       |
/// |      8 |    8 | payload length in bytes, big-endian            |
/// |     16 |   32 | SHA-256 of the payload                         |
/// |     48 |    n | payload                                        |
///
/// Every field is checked on reading, and the file must be exactly
/// `48 + length` bytes long, so a truncated file, a file with bytes appended, a
/// flipped bit anywhere (in the header or the payload), a file of another format
/// and a file of a future version are all rejected rather than returned. The
/// checksum is what makes that hold for the payload: the file system only
/// promises that a rename is atomic, not that the data under the new name
/// reached the disk before a power cut.
///
/// Integers are big-endian so that the format does not depend on the machine
/// that wrote it.
enum DiskCacheEntryFormat {
    /// Why a file is not a valid entry.
    enum Corruption: Error, Equatable {
        /// Shorter than a header.
        case truncatedHeader
        /// Does not start with the magic bytes.
        case badMagic
        /// Written in a format version this code does not read.
        case unsupportedVersion(UInt32)
        /// Longer or shorter than its header says.
        case lengthMismatch(expected: UInt64, actual: Int)
        /// The payload's checksum is not the one in the header.
        case checksumMismatch
    }

    static let magic: [UInt8] = Array("LKDC".utf8)
    static let version: UInt32 = 1
    static let headerSize = 48

    /// The size of the file that holds a payload of `payloadSize` bytes.
    static func fileSize(forPayloadSize payloadSize: Int) -> Int {
        headerSize + payloadSize
    }

    /// Returns the file contents for `payload`: the header followed by the payload.
    ///
    /// - Complexity: O(n): one checksum pass and one copy of the payload.
    static func encode(_ payload: Data) -> Data {
        let checksum = payload.withUnsafeBytes { SHA256.hash($0) }
        var file = Data(capacity: fileSize(forPayloadSize: payload.count))
        file.append(contentsOf: magic)
        appendBigEndian(version, to: &file)
        appendBigEndian(UInt64(payload.count), to: &file)
        file.append(contentsOf: checksum.bytes)
        file.append(payload)
        return file
    }

    /// Returns the payload of an entry's file contents, after checking the header.
    ///
    /// The payload is a copy with indices starting at 0, not a slice of `file`.
    ///
    /// - Complexity: O(n): one checksum pass and one copy of the payload.
    static func payload(of file: Data) throws(Corruption) -> Data {
        // `Data.withUnsafeBytes` rethrows untyped errors, so the outcome comes out as a `Result`.
        try file.withUnsafeBytes { payload(ofFile: $0) }.get()
    }

    private static func payload(ofFile bytes: UnsafeRawBufferPointer) -> Result<Data, Corruption> {
        guard bytes.count >= headerSize else { return .failure(.truncatedHeader) }
        guard bytes.prefix(4).elementsEqual(magic) else { return .failure(.badMagic) }
        let version = UInt32(readBigEndian(bytes, at: 4, width: 4))
        guard version == Self.version else { return .failure(.unsupportedVersion(version)) }
        let length = readBigEndian(bytes, at: 8, width: 8)
        let payloadSize = bytes.count - headerSize
        guard UInt64(payloadSize) == length else {
            return .failure(.lengthMismatch(expected: length, actual: payloadSize))
        }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[headerSize...])
        guard SHA256.Digest(bytes: bytes[16..<headerSize]) == SHA256.hash(payload) else {
            return .failure(.checksumMismatch)
        }
        return .success(Data(payload))
    }

    private static func appendBigEndian<Value: FixedWidthInteger>(_ value: Value, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    private static func readBigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int) -> UInt64 {
        bytes[offset..<offset + width].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
