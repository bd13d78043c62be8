/// SHA-256 (FIPS 180-4), incrementally over bytes.
///
/// The disk cache needs a hash for two jobs: naming an entry's file after its
/// key, so that no key can name a path outside the cache directory, and
/// checksumming an entry's payload, so that a corrupted or truncated file is
/// never returned. Both want a hash whose output is fixed-length hex and whose
/// collisions are out of reach, and both must give the same answer on every
/// platform and in every process, which rules out `Hasher` (seeded per process).
/// CryptoKit is Apple-only and swift-crypto would be the core's second
/// dependency for a hundred lines of code, so this is a small implementation of
/// the standard, checked against the FIPS 180 test vectors.
///
/// It is not constant-time and makes no attempt to resist side channels: it
/// hashes cache keys and payloads, never secrets.
///
/// - Complexity: O(n) in the number of bytes hashed; no allocation per block.
package struct SHA256 {
    /// A 256-bit SHA-256 digest.
    ///
    /// Stored as four 64-bit words (big-endian order of the digest's bytes) so
    /// that it is cheap to hash and compare as a dictionary key.
    package struct Digest: Hashable, Sendable {
        let words: (UInt64, UInt64, UInt64, UInt64)

        init(words: (UInt64, UInt64, UInt64, UInt64)) {
            self.words = words
        }

        /// Reads a digest from its 32 bytes, or returns `nil` if `bytes` is not 32 bytes long.
        init?(bytes: some Collection<UInt8>) {
            guard bytes.count == 32 else { return nil }
            var words: [UInt64] = [0, 0, 0, 0]
            for (offset, byte) in bytes.enumerated() {
                words[offset / 8] = words[offset / 8] << 8 | UInt64(byte)
            }
            self.words = (words[0], words[1], words[2], words[3])
        }

        /// Parses 64 lowercase hexadecimal digits, the form ``hexString`` produces,
        /// or returns `nil` for anything else (uppercase digits included, so a
        /// digest has exactly one spelling).
        package init?(hexString: some StringProtocol) {
            let utf8 = hexString.utf8
            guard utf8.count == 64 else { return nil }
            var words: [UInt64] = [0, 0, 0, 0]
            for (offset, character) in utf8.enumerated() {
                let nibble: UInt8
                switch character {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
                default: return nil
                }
                words[offset / 16] = words[offset / 16] << 4 | UInt64(nibble)
            }
            self.words = (words[0], words[1], words[2], words[3])
        }

        /// The digest's 32 bytes, most significant first.
        package var bytes: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32)
            for word in [words.0, words.1, words.2, words.3] {
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
                }
            }
            return bytes
        }

        /// The digest as 64 lowercase hexadecimal digits.
        package var hexString: String {
            let digits = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = []
            hex.reserveCapacity(64)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: hex, as: UTF8.self)
        }

        package static func == (lhs: Digest, rhs: Digest) -> Bool {
            lhs.words == rhs.words
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    /// The eight working hash values.
    private var state: SIMD8<UInt32> = SHA256.initialState
    /// Bytes not yet compressed: always fewer than a block.
    private var pending: [UInt8] = []
    /// The number of bytes hashed so far.
    private var length: UInt64 = 0

    /// A hasher that has seen no bytes.
    init() {
        pending.reserveCapacity(Self.blockSize)
    }

    /// Returns the digest of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Returns the digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Returns the digest of the UTF-8 encoding of `string`.
    package static func hash(_ string: String) -> Digest {
        var string = string
        return string.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let wasContiguous: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if wasContiguous == nil {
            let array = Array(bytes)
            array.withUnsafeBytes { update($0) }
        }
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var remaining = bytes[...]
        if !pending.isEmpty {
            let taken = remaining.prefix(Self.blockSize - pending.count)
            pending.append(contentsOf: taken)
            remaining = remaining.dropFirst(taken.count)
            guard pending.count == Self.blockSize else { return }
            pending.withUnsafeBytes { compress(blocks: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        let wholeBlocks = remaining.count / Self.blockSize * Self.blockSize
        if wholeBlocks > 0 {
            compress(blocks: UnsafeRawBufferPointer(rebasing: remaining.prefix(wholeBlocks)))
        }
        pending.append(contentsOf: remaining.dropFirst(wholeBlocks))
    }

    /// Pads the message and returns its digest.
    consuming func finalize() -> Digest {
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        // Pad with zeros until the length is 8 bytes short of a block boundary.
        let used = (pending.count + 1) % Self.blockSize
        let zeros = used <= Self.blockSize - 8 ? Self.blockSize - 8 - used : 2 * Self.blockSize - 8 - used
        padding.append(contentsOf: repeatElement(0, count: zeros))
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        update(padding)
        precondition(pending.isEmpty, "SHA-256 padding did not end on a block boundary")
        let s = state
        return Digest(
            words: (
                UInt64(s[0]) << 32 | UInt64(s[1]), UInt64(s[2]) << 32 | UInt64(s[3]),
                UInt64(s[4]) << 32 | UInt64(s[5]), UInt64(s[6]) << 32 | UInt64(s[7])
            ))
    }

    /// Runs the compression function over each 64-byte block of `blocks`.
    private mutating func compress(blocks: UnsafeRawBufferPointer) {
        precondition(blocks.count % Self.blockSize == 0, "SHA-256 compresses whole blocks only")
        // The message schedule lives on the stack: no allocation per block.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            Self.roundConstants.withUnsafeBufferPointer { k in
                var offset = 0
                while offset < blocks.count {
                    for t in 0..<16 {
                        let base = offset + 4 * t
                        schedule[t] =
                            UInt32(blocks[base]) << 24 | UInt32(blocks[base + 1]) << 16
                            | UInt32(blocks[base + 2]) << 8 | UInt32(blocks[base + 3])
                    }
                    for t in 16..<64 {
                        let w15 = schedule[t - 15]
                        let w2 = schedule[t - 2]
                        let sigma0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >> 3)
                        let sigma1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >> 10)
                        schedule[t] = schedule[t - 16] &+ sigma0 &+ schedule[t - 7] &+ sigma1
                    }
                    var a = state[0]
                    var b = state[1]
                    var c = state[2]
                    var d = state[3]
                    var e = state[4]
                    var f = state[5]
                    var g = state[6]
                    var h = state[7]
                    for t in 0..<64 {
                        let bigSigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let temp1 = h &+ bigSigma1 &+ choice &+ k[t] &+ schedule[t]
                        let bigSigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let temp2 = bigSigma0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ temp1
                        d = c
                        c = b
                        b = a
                        a = temp1 &+ temp2
                    }
                    state &+= SIMD8(a, b, c, d, e, f, g, h)
                    offset += Self.blockSize
                }
            }
        }
    }

    private static let blockSize = 64

    private static let initialState = SIMD8<UInt32>(
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

@inline(__always)
private func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
}
