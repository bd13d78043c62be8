#if Tools
import Foundation

/// Writes to the standard streams (Swift 6 rejects the C globals `stdout` and `stderr`).
enum StandardStreams {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `value` as sorted-key JSON on standard output: one line, or
    /// indented when `pretty`.
    static func writeJSON(_ value: some Encodable, pretty: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        write(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n")
    }

    /// Warns on standard error that a debug build's timings mean little;
    /// `command` is how to run the release build instead.
    static func warnIfDebugBuild(release command: String) {
        #if DEBUG
        writeError("warning: this is a debug build; the figures are only meaningful in release (\(command))\n")
        #endif
    }
}
#endif
