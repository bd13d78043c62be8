// The record of what a disk torture child reported committed, evicted and
// removed, and so what each key's file may hold after a kill.

import Lookahead

/// What a child process reported, turned into what the cache directory may hold.
///
/// The child writes one line per event on a pipe, each with a single
/// `write(2)` (atomic for lines this short), in the order things happened:
///
/// | line           | when                                                        |
/// |----------------|-------------------------------------------------------------|
/// | `W key digest` | before `store` of content whose SHA-256 is `digest`         |
/// | `C key`        | after that `store` returned: the write is committed          |
/// | `F key`        | after that `store` threw: nothing changed                    |
/// | `E name`       | a sweep evicted the entry whose file is `name`, before deleting it |
/// | `D key`        | before `removeData`                                          |
/// | `V kind key`   | the child saw a violation (`wrong`, `missing`, `corrupt`)    |
/// | `L bytes`      | after a store, the directory held more than the size limit   |
///
/// So after a kill, a key may hold its last committed content, or the content
/// of a store that had begun (`W` without `C`: the rename may or may not have
/// happened). It must exist if it was committed and neither evicted nor
/// removed since. A partial last line (the kill landed mid-line) is ignored.
package struct DiskTortureLedger: Sendable {
    /// What one key's file may hold.
    package struct KeyState: Sendable, Equatable {
        /// The content digests a read may return.
        package var allowed: Set<String> = []
        /// Whether the file must exist.
        package var mustExist = false
        /// The digest of a store begun and not yet reported done.
        package var pending: String?

        /// The digests a read may return now.
        package var acceptable: Set<String> {
            pending.map { allowed.union([$0]) } ?? allowed
        }
    }

    /// Each key's state, by key.
    package private(set) var keys: [String: KeyState] = [:]
    /// Violations the child reported, by kind (`wrong`, `missing`, `corrupt`, `limit`).
    package private(set) var childViolations: [String: Int] = [:]
    /// Stores reported committed.
    package private(set) var committedStores = 0
    /// Entries reported evicted.
    package private(set) var evictions = 0
    /// Lines that could not be parsed (a bug in the child, never a kill).
    package private(set) var malformedLines = 0
    private let keyByFileName: [String: String]

    /// A ledger for keys `keyNames`, none of which is on disk yet.
    package init(keyNames: [String]) {
        var keyByFileName: [String: String] = [:]
        for key in keyNames {
            keyByFileName[DiskTortureLedger.fileName(forKey: key)] = key
            keys[key] = KeyState()
        }
        self.keyByFileName = keyByFileName
    }

    /// The file name of `key`'s entry, as the cache names it.
    package static func fileName(forKey key: String) -> String {
        SHA256.hash(key).hexString
    }

    /// The SHA-256 of `bytes` in hex, as the child reports contents.
    package static func digest(of bytes: [UInt8]) -> String {
        SHA256.hash(bytes).hexString
    }

    /// Applies every complete line of `output`; a final line without its
    /// newline (cut by the kill) is ignored.
    package mutating func apply(output: [UInt8]) {
        var lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a line cut short
        for line in lines where !line.isEmpty {
            apply(line: String(decoding: line, as: UTF8.self))
        }
    }

    /// Applies one line of the protocol above.
    package mutating func apply(line: String) {
        let fields = line.split(separator: " ").map(String.init)
        switch (fields.first, fields.count) {
        case ("W", 3) where keys[fields[1]] != nil:
            keys[fields[1]]!.pending = fields[2]
        case ("C", 2) where keys[fields[1]]?.pending != nil:
            let digest = keys[fields[1]]!.pending!
            keys[fields[1]] = KeyState(allowed: [digest], mustExist: true, pending: nil)
            committedStores += 1
        case ("F", 2) where keys[fields[1]] != nil:
            keys[fields[1]]!.pending = nil
        case ("E", 2) where keyByFileName[fields[1]] != nil:
            evicted(fileName: fields[1])
        case ("D", 2) where keys[fields[1]] != nil:
            keys[fields[1]]!.mustExist = false
        case ("V", 3):
            childViolations[fields[1], default: 0] += 1
        case ("L", 2):
            childViolations["limit", default: 0] += 1
        default:
            malformedLines += 1
        }
    }

    /// Records that a sweep evicted the entry in file `fileName`: its file may
    /// be gone or, if the deletion had not happened yet, still there.
    package mutating func evicted(fileName: String) {
        guard let key = keyByFileName[fileName] else { return }
        keys[key]!.mustExist = false
        evictions += 1
    }

    /// Records what a check found: `found[key]` is the digest read back, or
    /// `nil` if the key read as a miss. Every key is then definite again.
    package mutating func settle(found: [String: String?]) {
        for (key, digest) in found {
            keys[key] = digest.map { KeyState(allowed: [$0], mustExist: true, pending: nil) } ?? KeyState()
        }
    }

    /// The lines that tell a new child what is on disk: `key digest` for every
    /// key whose content is known and must exist.
    package func expectedLines() -> String {
        keys.sorted { $0.key < $1.key }.compactMap { key, state in
            guard state.mustExist, state.pending == nil, state.allowed.count == 1 else { return nil }
            return "\(key) \(state.allowed.first!)\n"
        }.joined()
    }

    /// Restores what `expectedLines()` wrote.
    package mutating func load(expectedLines text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 2, keys[fields[0]] != nil else { continue }
            keys[fields[0]] = KeyState(allowed: [fields[1]], mustExist: true, pending: nil)
        }
    }
}
