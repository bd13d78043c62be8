// The byte layout of one disk cache entry's file, and its checks.

/// The layout of a disk cache entry's file: an 80-byte header, then the payload.
///
/// | offset | size | field                                          |
/// |-------:|-----:|------------------------------------------------|
/// |      0 |    4 | magic, the ASCII bytes `LKDC`                  |
/// |      4 |    4 | format version, big-endian (currently 2)       |
/// |      8 |    8 | payload length in bytes, big-endian            |
/// |     16 |   32 | SHA-256 of the key (the entry's file name)     |
/// |     48 |   32 | SHA-256 of the payload                         |
/// |     80 |    n | payload                                        |
///
/// Every field is checked on reading, and the file must be exactly
/// `80 + length` bytes long, so a truncated file, a file with bytes appended, a
/// flipped bit anywhere (in the header or the payload), a file of another format
/// and a file of another version are all rejected rather than returned. The
/// checksum is what makes that hold for the payload: the file system only
/// promises that a rename is atomic, not that the data under the new name
/// reached the disk before a power cut.
///
/// The key's digest binds the file to its entry: a valid file copied or renamed
/// under another entry's name (by a backup tool, a sync, a bug) is rejected
/// there, so a key never reads another key's bytes. Version 1 files, which
/// lacked it, read as corrupt and are replaced.
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
        /// The entry belongs to another key.
        case wrongKey
        /// The payload's checksum is not the one in the header.
        case checksumMismatch
    }

    static let magic: [UInt8] = Array("LKDC".utf8)
    static let version: UInt32 = 2
    static let headerSize = 80

    /// The size of the file that holds a payload of `payloadSize` bytes.
    static func fileSize(forPayloadSize payloadSize: Int) -> Int {
        headerSize + payloadSize
    }

    /// Returns the header of the file holding `payload` for the key whose digest is `key`.
    ///
    /// - Complexity: O(n): one checksum pass over the payload.
    static func header(for payload: UnsafeRawBufferPointer, key: SHA256.Digest) -> [UInt8] {
        var header: [UInt8] = []
        header.reserveCapacity(headerSize)
        header.append(contentsOf: magic)
        appendBigEndian(version, to: &header)
        appendBigEndian(UInt64(payload.count), to: &header)
        header.append(contentsOf: key.bytes)
        header.append(contentsOf: SHA256.hash(payload).bytes)
        return header
    }

    /// Returns the file contents for `payload` stored under the key whose digest
    /// is `key`: the header followed by the payload.
    ///
    /// - Complexity: O(n): one checksum pass and one copy of the payload.
    static func encode(_ payload: [UInt8], key: SHA256.Digest) -> [UInt8] {
        payload.withUnsafeBytes { header(for: $0, key: key) } + payload
    }

    /// Returns the payload of `file` if it is a valid entry of the key whose
    /// digest is `key`, or throws why it is not.
    ///
    /// - Complexity: O(n): one checksum pass and one copy of the payload.
    static func payload(of file: [UInt8], key: SHA256.Digest) throws(Corruption) -> [UInt8] {
        try file.withUnsafeBytes { payload(ofFile: $0, key: key) }.typedGet()
    }

    private static func payload(ofFile bytes: UnsafeRawBufferPointer, key: SHA256.Digest) -> Result<[UInt8], Corruption>
    {
        guard bytes.count >= headerSize else { return .failure(.truncatedHeader) }
        guard bytes.prefix(4).elementsEqual(magic) else { return .failure(.badMagic) }
        let version = UInt32(readBigEndian(bytes, at: 4, width: 4))
        guard version == Self.version else { return .failure(.unsupportedVersion(version)) }
        let length = readBigEndian(bytes, at: 8, width: 8)
        let payloadSize = bytes.count - headerSize
        guard UInt64(payloadSize) == length else {
            return .failure(.lengthMismatch(expected: length, actual: payloadSize))
        }
        guard SHA256.Digest(bytes: bytes[16..<48]) == key else { return .failure(.wrongKey) }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[headerSize...])
        guard SHA256.Digest(bytes: bytes[48..<headerSize]) == SHA256.hash(payload) else {
            return .failure(.checksumMismatch)
        }
        return .success(Array(payload))
    }

    private static func appendBigEndian<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func readBigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int) -> UInt64 {
        bytes[offset..<offset + width].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
