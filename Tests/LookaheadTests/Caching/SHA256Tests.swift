import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct SHA256Tests {
    // MARK: - FIPS 180 test vectors

    @Test func theEmptyMessage() {
        #expect(SHA256.hash("").hexString == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(SHA256.hash("abc").hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func the448BitMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(
            SHA256.hash(message).hexString == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func the896BitMessage() {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            SHA256.hash(message).hexString == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func aMillionAs() {
        // Given a million 'a's, fed in chunks of 1,000 as the standard's test describes
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000)
        for _ in 0..<1_000 {
            hasher.update(chunk)
        }

        // Then the digest is the standard's
        #expect(hasher.finalize().hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths either side of where the padding spills into a second block (55/56)
    /// and of block boundaries. Expected digests from Python's `hashlib`.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        #expect(SHA256.hash(String(repeating: "a", count: length)).hexString == expected)
    }

    // MARK: - Incremental hashing

    @Test func feedingBytesInAnyChunksGivesTheSameDigest() {
        // Given 1,000 seeded random bytes and their one-shot digest
        let seed: UInt64 = 0x5A_256
        var random = SeededRandom(seed: seed)
        let bytes = (0..<1_000).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        let expected = SHA256.hash(bytes)

        for _ in 0..<50 {
            // When they are fed in random chunks, some empty
            var hasher = SHA256()
            var offset = 0
            while offset < bytes.count {
                let length = min(random.next(below: 150), bytes.count - offset)
                hasher.update(bytes[offset..<offset + length])
                offset += length
            }

            // Then the digest is the same
            #expect(hasher.finalize() == expected, "seed \(seed)")
        }
    }

    @Test func aNonContiguousSequenceHashesLikeItsBytes() {
        let bytes: [UInt8] = Array("hello, world".utf8)
        #expect(SHA256.hash(bytes.lazy.map { $0 }) == SHA256.hash("hello, world"))
    }

    // MARK: - Digest

    @Test func aDigestRoundTripsThroughHexAndBytes() {
        // Given a digest
        let digest = SHA256.hash("abc")

        // Then it reads back from its hex and from its bytes
        #expect(SHA256.Digest(hexString: digest.hexString) == digest)
        #expect(SHA256.Digest(bytes: digest.bytes) == digest)
        #expect(digest.bytes.count == 32)
        #expect(digest.bytes.first == 0xBA)
        #expect(digest.bytes.last == 0xAD)
    }

    @Test(arguments: [
        "",
        "abc",
        String(repeating: "0", count: 63),
        String(repeating: "0", count: 65),
        "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
        "../" + String(repeating: "0", count: 61),
        String(repeating: "g", count: 64),
    ])
    func otherStringsAreNotDigests(string: String) {
        #expect(SHA256.Digest(hexString: string) == nil)
    }
}
