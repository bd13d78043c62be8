#if Tools
import Foundation
public import Logging

/// A swift-log handler that appends one line per message to a file.
///
/// The demo's UI owns the terminal, so its logs go to a file (`--log-file`)
/// or nowhere, never between the frames.
public struct DemoLogHandler: LogHandler {
    private let file: FileHandle
    private let label: String
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level

    /// Opens `path` for appending, creating it if needed.
    ///
    /// - Throws: ``DemoConfigurationError`` if the file cannot be created or opened.
    public init(label: String, path: String, logLevel: Logger.Level) throws(DemoConfigurationError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw DemoConfigurationError("--log-file: cannot create '\(path)'; expected a writable path")
            }
        }
        guard let file = FileHandle(forWritingAtPath: path) else {
            throw DemoConfigurationError("--log-file: cannot open '\(path)' for writing")
        }
        file.seekToEndOfFile()
        self.file = file
        self.label = label
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let details = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "\(Date()) \(event.level) \(label): \(event.message)\(details.isEmpty ? "" : " " + details)\n"
        file.write(Data(line.utf8))
    }
}
#endif
