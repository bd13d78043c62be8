import Foundation

/// Writes to the standard streams (Swift 6 rejects the C globals `stdout` and `stderr`).
enum StandardStreams {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
