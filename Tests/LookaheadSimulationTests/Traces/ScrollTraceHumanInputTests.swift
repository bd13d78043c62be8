import Foundation
import Testing

@testable import LookaheadSimulation

/// Traces as people hand them over: exported from spreadsheets and phones,
/// with headers, byte order marks, CRLF and metadata comments.
@Suite(.timeLimit(.minutes(1)))
struct ScrollTraceHumanInputTests {
    typealias Sample = ScrollTrace.Sample

    let expected = [Sample(time: .zero, offset: 0), Sample(time: .milliseconds(16), offset: 12.5)]

    @Test func aByteOrderMarkHeaderAndCRLFAreAccepted() throws {
        // Given what a spreadsheet exports: a BOM, a header and CRLF line ends
        let text = "\u{FEFF}time_ms,offset\r\n0,0\r\n16,12.5\r\n"

        // When it is read
        let trace = try ScrollTrace(csv: text)

        // Then the samples are read, the BOM and the header skipped
        #expect(trace.samples == expected)
    }

    @Test func aByteOrderMarkBeforeTheFirstSampleIsSkipped() throws {
        // Given a BOM right before the first number, without a header
        // When it is read
        let trace = try ScrollTrace(csv: "\u{FEFF}0,0\n16,12.5\n")

        // Then the first sample is read as a number
        #expect(trace.samples == expected)
    }

    @Test(arguments: ["Time (ms), Offset", "t,y", "time_ms,offset_pt", "TIME_MS,OFFSET"])
    func otherHeadersAreAccepted(header: String) throws {
        // Given a header other than the one csv() writes
        // When it is read
        let trace = try ScrollTrace(csv: "\(header)\r\n0,0\r\n16,12.5")

        // Then it is skipped as a header
        #expect(trace.samples == expected, "\(header)")
    }

    @Test func metadataCommentsAreSkippedAnywhere() throws {
        // Given metadata lines before and after the header and between samples
        let text =
            "\u{FEFF}# viewport=390x844\r\n# device=iPhone 15\r\ntime_ms,offset\r\n# rate=60\r\n0,0\r\n#x=1\r\n16,12.5\r\n"

        // When it is read
        let trace = try ScrollTrace(csv: text)

        // Then only the samples count
        #expect(trace.samples == expected)
    }

    @Test func aHeaderIsOnlyAcceptedFirst() {
        // Given a header-like line after a sample
        // When it is read
        // Then it is refused with its line number
        #expect(throws: TraceParseError(line: 3, reason: "expected a number for time_ms, got 'time'")) {
            try ScrollTrace(csv: "# c\n0,0\ntime,offset\n")
        }
    }

    @Test(arguments: ["inf,0", "nan,1", "Infinity,2"])
    func infinityIsNotAHeader(line: String) {
        // Given a first line of non-finite numbers spelt as words
        // When it is read
        // Then it is refused as a sample, not skipped as a header
        #expect(throws: TraceParseError.self) { try ScrollTrace(csv: "\(line)\n16,1\n") }
    }

    @Test func aTraceLongerThanADayIsRefusedWithItsLine() throws {
        // Given the trace that made the simulator allocate 10¹² counters
        let text = "time_ms,offset\r\n0,0\r\n1000000000000000,0\r\n"

        // When it is read
        // Then it is refused at the line that passes 24 h
        #expect(
            throws: TraceParseError(
                line: 3,
                reason: "time 1000000000000000 ms is beyond 24 h (86400000 ms), the longest trace accepted")
        ) { try ScrollTrace(csv: text) }
        // And a day exactly is accepted
        #expect(try ScrollTrace(csv: "0,0\n86400000,5\n").duration == .seconds(86_400))
        #expect(throws: TraceParseError.self) { try ScrollTrace(csv: "0,0\n86400000.001,5\n") }
    }

    @Test func decreasingTimesAreRefusedWithTheirLine() {
        // Given CRLF samples whose time goes back on the fourth line
        // When it is read
        // Then the line is named
        #expect(throws: TraceParseError(line: 4, reason: "time 15 ms goes back before 32 ms")) {
            try ScrollTrace(csv: "\u{FEFF}time_ms,offset\r\n0,0\r\n32,1\r\n15,2\r\n")
        }
    }

    @Test func aFileWithABOMAndCRLFIsRead() throws {
        // Given such a file on disk
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("trace-\(UUID().uuidString).csv").path
        try Data("\u{FEFF}time_ms,offset\r\n0,0\r\n16,12.5\r\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is read
        let trace = try ScrollTrace(contentsOfCSV: path)

        // Then its samples are there
        #expect(trace.samples == expected)
    }
}
