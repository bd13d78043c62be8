public import Lookahead

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A trace recorded in an app by ``ScrollTraceRecorder``: the scroll, the
/// drag-end targets, and what the recorder said of the screen and the content.
///
/// The recorder's CSV is the simulator's trace format with a third column,
/// `target_offset` (empty but on the frames a drag ended in a fling), and
/// `# key=value` metadata lines: `viewport=WxH`, `items=N`, `item-size=WxH`
/// or `item-height=H`, `dropped=N`. Plain two-column traces read too, with
/// no metadata. Samples are read by ``ScrollTrace/init(csv:)``, with its
/// checks and its line numbers.
public struct RecordedTrace: Sendable {
    /// The scroll.
    public var trace: ScrollTrace
    /// The visible area, if recorded.
    public var viewport: Size?
    /// The list's item count, if recorded.
    public var itemCount: Int?
    /// Every item's size in a uniform layout, if recorded.
    public var itemSize: Size?
    /// The mean item height of a varied layout, if recorded.
    public var meanItemHeight: Double?
    /// Where each fling announced at the end of a drag would come to rest, and when it was announced.
    public var releaseTargets: [ScrollTrace.Sample]

    /// Reads a recorded trace.
    ///
    /// - Throws: ``TraceParseError`` naming the line: a malformed metadata
    ///   value, a third field that is not a number, or what
    ///   ``ScrollTrace/init(csv:)`` refuses.
    /// - Complexity: O(n) in the length of the text.
    public init(csv text: String) throws(TraceParseError) {
        var samplesText = ""
        var targets: [(sample: Int, offset: Double)] = []
        var sampleCount = 0
        var isFirstContent = true
        var metadata = Metadata()
        var lineNumber = 0
        let body = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        for rawLine in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let line = Self.trimmed(rawLine)
            if line.hasPrefix("#") {
                try metadata.read(Self.trimmed(line.dropFirst()), line: lineNumber)
                samplesText += "\n"
                continue
            }
            if line.isEmpty {
                samplesText += "\n"
                continue
            }
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(Self.trimmed)
            let isHeader = isFirstContent && fields.allSatisfy { $0.first?.isLetter == true }
            isFirstContent = false
            if fields.count == 3 {
                let third = fields.removeLast()
                if !isHeader, !third.isEmpty {
                    guard let target = Double(third), target.isFinite, third.first?.isLetter != true else {
                        throw TraceParseError(
                            line: lineNumber, reason: "expected a number (or nothing) for target_offset, got '\(third)'"
                        )
                    }
                    targets.append((sampleCount, target))
                }
            }
            if !isHeader { sampleCount += 1 }
            samplesText += fields.joined(separator: ",") + "\n"
        }
        trace = try ScrollTrace(csv: samplesText)
        viewport = metadata.viewport
        itemCount = metadata.itemCount
        itemSize = metadata.itemSize
        meanItemHeight = metadata.meanItemHeight
        let samples = trace.samples
        releaseTargets = targets.map { ScrollTrace.Sample(time: samples[$0.sample].time, offset: $0.offset) }
    }

    /// Reads a recorded trace from a file (UTF-8), at most ``ScrollTrace/maximumFileBytes`` long.
    ///
    /// - Throws: the file system's error, or ``TraceParseError``.
    public init(contentsOfCSV path: String) throws {
        try self.init(csv: ScrollTrace.text(ofCSVFile: path))
    }

    /// What the metadata lines say.
    struct Metadata {
        var viewport: Size?
        var itemCount: Int?
        var itemSize: Size?
        var meanItemHeight: Double?

        /// Reads one `key=value` metadata line; unknown keys are skipped (a later
        /// recorder may write more), and so are comments that are not `key=value`.
        mutating func read(_ text: String, line: Int) throws(TraceParseError) {
            guard let equals = text.firstIndex(of: "=") else { return }
            let key = RecordedTrace.trimmed(text[..<equals])
            let value = RecordedTrace.trimmed(text[text.index(after: equals)...])
            func size() throws(TraceParseError) -> Size {
                let parts = value.lowercased().split(separator: "x", omittingEmptySubsequences: false).map {
                    Double($0)
                }
                guard parts.count == 2, let width = parts[0], let height = parts[1], width.isFinite, height.isFinite,
                    width > 0, height > 0, width <= 100_000, height <= 100_000
                else {
                    throw TraceParseError(line: line, reason: "\(key) takes WIDTHxHEIGHT in points, got '\(value)'")
                }
                return Size(width: width, height: height)
            }
            switch key {
            case "viewport":
                viewport = try size()
            case "item-size":
                itemSize = try size()
            case "items":
                guard let count = Int(value), (0...10_000_000).contains(count) else {
                    throw TraceParseError(line: line, reason: "items takes a count of 0 to 10000000, got '\(value)'")
                }
                itemCount = count
            case "item-height":
                guard let height = Double(value), height.isFinite, height > 0, height <= 100_000 else {
                    throw TraceParseError(line: line, reason: "item-height takes points above 0, got '\(value)'")
                }
                meanItemHeight = height
            default:
                break
            }
        }
    }

    /// `text` without the spaces and tabs around it.
    static func trimmed(_ text: some StringProtocol) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }
}

extension RecordedTrace {
    /// The list the recording describes: a grid when several items of the
    /// recorded size fit across the recorded viewport, a list otherwise; `nil`
    /// without the viewport, the item count and a size.
    public var layout: SimulationScenario.Layout? {
        guard let viewport, let itemCount else { return nil }
        if let itemSize {
            let columns = max(1, Int((viewport.width / itemSize.width).rounded(.down)))
            guard columns > 1 else { return .list(rowHeights: Array(repeating: itemSize.height, count: itemCount)) }
            let spacing = max(0, (viewport.width - Double(columns) * itemSize.width) / Double(columns - 1))
            return .grid(
                columns: columns, itemCount: itemCount, spacing: spacing,
                aspectRatio: itemSize.width / itemSize.height)
        }
        if let meanItemHeight { return .list(rowHeights: Array(repeating: meanItemHeight, count: itemCount)) }
        return nil
    }
}
