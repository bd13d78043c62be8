#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// CSV scroll traces: one `time_ms,offset` sample per line, or
/// `time_ms,offset,row,row_offset` for a feed of carousels.
///
/// - The two optional columns give the row whose carousel the finger is on
///   and that carousel's horizontal content offset in points (see
///   ``ScrollTrace``): `row` a whole number from 0 to 10,000,000, `row_offset`
///   a finite decimal. Both are empty (`120,300,,`) or both are set; two- and
///   four-field lines may be mixed, so a trace without them reads as before.
/// - Times are milliseconds from the start, decimal, possibly fractional,
///   never negative and never going back in time (equal times are allowed).
/// - Offsets are content offsets in points, decimal, finite (negative ones,
///   from a rubber band, are allowed).
/// - An optional header may precede the samples (after blank and comment
///   lines only): two comma-separated column names, each starting with a
///   letter, such as `time_ms,offset` (what `csv()` writes) or
///   `Time (ms), Offset`, or four for the carousel columns
///   (`time_ms,offset,row,row_offset`). Blank lines and lines starting with `#` are
///   ignored; `# key=value` lines (such as `# viewport=390x844`) are kept
///   free for metadata a later version will read. Spaces and tabs around
///   lines and fields are allowed; `\n`, `\r\n` and `\r` all end a line;
///   a UTF-8 byte order mark at the start is skipped (spreadsheets write one).
/// - Times go up to 24 hours (86,400,000 ms): a longer trace is refused with
///   the line that passes the limit.
/// - Numbers are plain decimals with an optional exponent (`12`, `-3.5`,
///   `1e3`); `inf`, `nan` and hexadecimal are rejected.
///
/// Times are kept exactly to the attosecond when written without an
/// exponent, so `ScrollTrace(csv: trace.csv()) == trace` for every trace
/// with non-negative times.
extension ScrollTrace {
    /// The header line a CSV trace may start with, and `csv()` writes.
    public static let csvHeader = "time_ms,offset"

    /// The header `csv()` writes for a trace with carousel offsets.
    public static let carouselCSVHeader = "time_ms,offset,row,row_offset"

    /// The largest row number a trace may name: as many rows as a layout may have items.
    public static let maximumRow = 10_000_000

    /// The longest trace, in milliseconds: 24 hours, as
    /// ``SimulationScenario/maximumDuration``. A run's memory and time grow
    /// with its length, so a longer one is refused before anything is built.
    public static let maximumMilliseconds = 86_400_000.0

    /// The largest CSV file read: 24 h at 60 Hz is about 100 MB of samples.
    public static let maximumFileBytes = 256 * 1_024 * 1_024

    /// Reads a trace from CSV text.
    ///
    /// - Throws: `TraceParseError` naming the first offending line: a wrong
    ///   number of fields, a field that is not a decimal number, a non-finite
    ///   number, a negative time, a time beyond 24 h, a time before the
    ///   previous one, or no samples at all.
    /// - Complexity: O(n) in the length of the text.
    public init(csv original: String) throws(TraceParseError) {
        var text = original
        if text.unicodeScalars.first == "\u{FEFF}" { text = String(text.unicodeScalars.dropFirst()) }
        var samples: [Sample] = []
        var lineNumber = 0
        var mayHaveHeader = true
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let line = Self.trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(Self.trimmed)
            defer { mayHaveHeader = false }
            if mayHaveHeader && (fields.count == 2 || fields.count == 4) && fields.allSatisfy(Self.isColumnName) {
                continue
            }
            guard fields.count == 2 || fields.count == 4 else {
                throw TraceParseError(
                    line: lineNumber,
                    reason: "expected two comma-separated numbers, got '\(line)'")
            }
            let time = try Self.time(fields[0], line: lineNumber)
            let offset = try Self.number(fields[1], named: "offset", line: lineNumber)
            if let previous = samples.last, time < previous.time {
                throw TraceParseError(
                    line: lineNumber,
                    reason: "time \(fields[0]) ms goes back before \(Self.milliseconds(previous.time)) ms")
            }
            let carousel = fields.count == 4 ? try Self.carousel(fields[2], fields[3], line: lineNumber) : nil
            samples.append(Sample(time: time, offset: offset, row: carousel?.row, rowOffset: carousel?.offset))
        }
        // A final line break ends the last line rather than starting an empty one, and an empty
        // text has no lines at all.
        if text.isEmpty || text.last?.isNewline == true { lineNumber -= 1 }
        guard !samples.isEmpty else { throw TraceParseError(line: lineNumber, reason: "no samples") }
        self.init(samples: samples)
    }

    /// Reads a trace from a CSV file (UTF-8).
    ///
    /// - Throws: the file system's error if the file cannot be read, or
    ///   `TraceParseError` if its contents are malformed.
    public init(contentsOfCSV path: String) throws {
        try self.init(csv: Self.text(ofCSVFile: path))
    }

    /// The text of a trace file (UTF-8), refused beyond ``maximumFileBytes``.
    ///
    /// - Throws: the file system's error, or `TraceParseError` for a file too large.
    static func text(ofCSVFile path: String) throws -> String {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        guard size <= maximumFileBytes else {
            throw TraceParseError(
                line: 0, reason: "the file is \(size) bytes, more than the \(maximumFileBytes) accepted")
        }
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// The trace as CSV: the header, then one `time_ms,offset` line per
    /// sample — `time_ms,offset,row,row_offset` when some sample gives a
    /// carousel's offset (the last two empty on the others).
    ///
    /// Times are written exactly (to the attosecond, trailing zeros dropped)
    /// and offsets in the shortest form that reads back as the same `Double`,
    /// so reading the text back gives an equal trace.
    ///
    /// - Complexity: O(samples).
    public func csv() -> String {
        let withRows = hasRowOffsets
        var text = (withRows ? Self.carouselCSVHeader : Self.csvHeader) + "\n"
        for sample in samples {
            text += "\(Self.milliseconds(sample.time)),\(sample.offset)"
            if withRows {
                if let row = sample.row, let rowOffset = sample.rowOffset {
                    text += ",\(row),\(rowOffset)"
                } else {
                    text += ",,"
                }
            }
            text += "\n"
        }
        return text
    }

    // MARK: - Fields

    /// A time field, in milliseconds.
    private static func time(_ field: Substring, line: Int) throws(TraceParseError) -> Duration {
        let value = try number(field, named: "time_ms", line: line)
        guard value >= 0 else { throw TraceParseError(line: line, reason: "time \(field) ms is negative") }
        guard value <= maximumMilliseconds else {
            throw TraceParseError(
                line: line, reason: "time \(field) ms is beyond 24 h (86400000 ms), the longest trace accepted")
        }
        return exactMilliseconds(field) ?? .milliseconds(value)
    }

    /// The `row,row_offset` fields: both empty (no carousel) or a row in
    /// `0...maximumRow` and a finite offset.
    private static func carousel(
        _ rowField: Substring, _ offsetField: Substring, line: Int
    ) throws(TraceParseError) -> (row: Int, offset: Double)? {
        if rowField.isEmpty && offsetField.isEmpty { return nil }
        guard !rowField.isEmpty, !offsetField.isEmpty else {
            throw TraceParseError(line: line, reason: "row and row_offset go together: both empty or both set")
        }
        guard rowField.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            rowField.count <= 8, let row = Int(rowField), row <= maximumRow
        else {
            throw TraceParseError(
                line: line, reason: "expected a row number in 0...\(maximumRow), got '\(rowField)'")
        }
        return (row, try number(offsetField, named: "row_offset", line: line))
    }

    /// A decimal field as a finite `Double`.
    private static func number(_ field: Substring, named name: String, line: Int) throws(TraceParseError) -> Double {
        guard isDecimal(field), let value = Double(field) else {
            throw TraceParseError(line: line, reason: "expected a number for \(name), got '\(field)'")
        }
        guard value.isFinite else {
            throw TraceParseError(line: line, reason: "\(name) \(field) is not finite")
        }
        return value
    }

    /// Whether `text` can be a header's column name: it starts with a letter
    /// and is not a spelling of infinity or not-a-number (which `Double`
    /// would read, and which are then refused as samples).
    private static func isColumnName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter else { return false }
        return !["inf", "infinity", "nan"].contains(text.lowercased())
    }

    /// Whether `text` is `[+-]digits[.digits][(e|E)[+-]digits]` with at least one digit before the exponent.
    private static func isDecimal(_ text: Substring) -> Bool {
        var rest = text.utf8[...]
        func skipDigits() -> Int {
            let count = rest.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            rest = rest.dropFirst(count)
            return count
        }
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        var digits = skipDigits()
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            digits += skipDigits()
        }
        guard digits > 0 else { return false }
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
            guard skipDigits() > 0 else { return false }
        }
        return rest.isEmpty
    }

    /// Attoseconds in a millisecond. `Duration`'s 64-bit components, not its
    /// 128-bit `attoseconds` (macOS 15 / iOS 18), so the simulator builds on
    /// the package's floors.
    private static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000

    /// A non-negative decimal number of milliseconds without an exponent, to
    /// the attosecond (further digits are dropped); nil for other forms.
    /// Callers have checked that the value is at most 24 h.
    private static func exactMilliseconds(_ field: Substring) -> Duration? {
        var text = field.utf8[...]
        if text.first == UInt8(ascii: "+") { text = text.dropFirst() }
        guard !text.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "-") })
        else { return nil }
        let parts = text.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        var whole: Int64 = 0
        for digit in parts[0] {
            let (shifted, overflow) = whole.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            whole = shifted + Int64(digit - UInt8(ascii: "0"))
        }
        var fraction: Int64 = 0
        var scale = attosecondsPerMillisecond
        let decimals = parts.count > 1 ? Array(parts[1].prefix(15)) : []
        for digit in decimals {
            scale /= 10
            fraction += Int64(digit - UInt8(ascii: "0")) * scale
        }
        return Duration(
            secondsComponent: whole / 1_000,
            attosecondsComponent: (whole % 1_000) * attosecondsPerMillisecond + fraction)
    }

    /// `time` in milliseconds, exactly: the whole milliseconds, then up to 15
    /// decimals without trailing zeros.
    private static func milliseconds(_ time: Duration) -> String {
        let (seconds, attoseconds) = time.components
        let negative = seconds < 0 || attoseconds < 0
        let wholeSeconds = seconds.magnitude
        let attosecondsPart = attoseconds.magnitude
        let perMillisecond = UInt64(attosecondsPerMillisecond)
        var text = negative ? "-" : ""
        text += String(wholeSeconds * 1_000 + attosecondsPart / perMillisecond)
        var fraction = attosecondsPart % perMillisecond
        if fraction != 0 {
            var digits = 15
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let decimals = String(fraction)
            text += "." + String(repeating: "0", count: digits - decimals.count) + decimals
        }
        return text
    }

    /// `text` without surrounding spaces and tabs (and a stray carriage return).
    private static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex(where: { !$0.isWhitespace }) ?? text.endIndex
        let end = text.lastIndex(where: { !$0.isWhitespace }).map(text.index(after:)) ?? start
        return text[start..<end]
    }
}
