import Foundation
import Testing

@testable import LookaheadSimulation

@Suite(.timeLimit(.minutes(1)))
struct ScrollTraceCSVTests {
    typealias Sample = ScrollTrace.Sample

    // MARK: - Reading

    @Test func aHeaderAndFractionalTimesAreRead() throws {
        // Given a file with the header and fractional times
        let text = "time_ms,offset\n0,0\n16.5,10\n33.25,-2.5\n"

        // When it is read
        let trace = try ScrollTrace(csv: text)

        // Then its samples are in milliseconds and points
        #expect(
            trace.samples == [
                Sample(time: .zero, offset: 0), Sample(time: .microseconds(16_500), offset: 10),
                Sample(time: .microseconds(33_250), offset: -2.5),
            ])
    }

    @Test func commentsBlankLinesAndWhitespaceAreSkipped() throws {
        // Given comments (also before the header), blank lines, spaces and tabs, CRLF line ends
        // and no final line break
        let text =
            "# recorded on a phone\r\n\r\n  time_ms,offset \r\n  0 , 1.5 \r\n\t# a pause\r\n\t16\t,2\r\n\r\n33,1e3"

        // When it is read
        let trace = try ScrollTrace(csv: text)

        // Then only the samples count
        #expect(
            trace.samples == [
                Sample(time: .zero, offset: 1.5), Sample(time: .milliseconds(16), offset: 2),
                Sample(time: .milliseconds(33), offset: 1_000),
            ])
    }

    @Test func equalTimesAndExponentsAreAllowed() throws {
        // Given two samples at the same time and a time with an exponent
        // When the text is read
        let trace = try ScrollTrace(csv: "0,0\n1.5e1,3\n15,4\n+20,5\n")

        // Then all are kept
        #expect(trace.samples.map(\.time) == [.zero, .milliseconds(15), .milliseconds(15), .milliseconds(20)])
    }

    // MARK: - Writing

    @Test func aGeneratedTraceRoundTripsExactly() throws {
        // Given a generated trace, whose times are thirds of milliseconds to the attosecond
        for style in ScrollTraceGenerator.Style.allCases {
            let trace = ScrollTraceGenerator(
                seed: 11, style: style, duration: .seconds(20), contentHeight: 200_000, viewportHeight: 844
            ).makeTrace()

            // When it is written and read back
            let text = trace.csv()

            // Then it is the same trace, exactly
            #expect(try ScrollTrace(csv: text) == trace, "\(style)")
            #expect(text.hasPrefix("time_ms,offset\n0,0.0\n16.666666666666666,"))
        }
    }

    @Test func oddValuesRoundTripExactly() throws {
        // Given a trace with tiny and huge offsets, negative ones, and times that are not whole
        let trace = ScrollTrace(
            samples: [
                Sample(time: .zero, offset: -0.000_01),
                Sample(time: .nanoseconds(1), offset: 1e300),
                Sample(time: .microseconds(16_667), offset: 1.0 / 3),
                Sample(time: Duration(attoseconds: 1), offset: 1.0 / 3),
                Sample(time: .seconds(3_600), offset: -123_456.789),
            ].sorted { $0.time < $1.time })

        // When it is written and read back
        let text = trace.csv()

        // Then it is the same trace, exactly
        #expect(try ScrollTrace(csv: text) == trace)
        #expect(text.contains("\n0.000000000000001,"))
        #expect(text.contains("\n0.000001,1e+300\n"))
        #expect(text.contains("\n3600000,-123456.789\n"))
    }

    // MARK: - Malformed input

    @Test(arguments: [
        // A bad time on line 3
        ("0,0\n16,1\nabc,2\n", TraceParseError(line: 3, reason: "expected a number for time_ms, got 'abc'")),
        // A bad offset on line 3, counting the header
        ("time_ms,offset\n0,0\n16,x\n", TraceParseError(line: 3, reason: "expected a number for offset, got 'x'")),
        // Fields: one, three, none, an empty one
        ("0,0\n16\n", TraceParseError(line: 2, reason: "expected two comma-separated numbers, got '16'")),
        ("0,0\n16,1,2\n", TraceParseError(line: 2, reason: "expected two comma-separated numbers, got '16,1,2'")),
        ("0,0\n\n\nabc\n", TraceParseError(line: 4, reason: "expected two comma-separated numbers, got 'abc'")),
        ("0,\n", TraceParseError(line: 1, reason: "expected a number for offset, got ''")),
        // Numbers that are not plain decimals
        ("0,0\n16,nan\n", TraceParseError(line: 2, reason: "expected a number for offset, got 'nan'")),
        ("0,0\ninf,1\n", TraceParseError(line: 2, reason: "expected a number for time_ms, got 'inf'")),
        ("0x10,0\n", TraceParseError(line: 1, reason: "expected a number for time_ms, got '0x10'")),
        ("1 6,0\n", TraceParseError(line: 1, reason: "expected a number for time_ms, got '1 6'")),
        (".,0\n", TraceParseError(line: 1, reason: "expected a number for time_ms, got '.'")),
        ("1e,0\n", TraceParseError(line: 1, reason: "expected a number for time_ms, got '1e'")),
        // Non-finite numbers
        ("0,0\n16,1e999\n", TraceParseError(line: 2, reason: "offset 1e999 is not finite")),
        ("# c\n1e400,0\n", TraceParseError(line: 2, reason: "time_ms 1e400 is not finite")),
        // Times that are negative, too large, or go back
        ("-1,0\n", TraceParseError(line: 1, reason: "time -1 ms is negative")),
        (
            "0,0\n1e16,0\n",
            TraceParseError(line: 2, reason: "time 1e16 ms is beyond 24 h (86400000 ms), the longest trace accepted")
        ),
        ("0,0\n20,1\n\n# c\n10,2\n", TraceParseError(line: 5, reason: "time 10 ms goes back before 20 ms")),
        ("0,0\n20.5,1\n20.25,2\n", TraceParseError(line: 3, reason: "time 20.25 ms goes back before 20.5 ms")),
        // A header after the first sample
        ("0,0\ntime_ms,offset\n", TraceParseError(line: 2, reason: "expected a number for time_ms, got 'time_ms'")),
        // No samples: the last line is named, 0 for nothing at all
        ("", TraceParseError(line: 0, reason: "no samples")),
        ("# only a comment\n\n", TraceParseError(line: 2, reason: "no samples")),
        ("time_ms,offset\n", TraceParseError(line: 1, reason: "no samples")),
        ("\n\n\n   ", TraceParseError(line: 4, reason: "no samples")),
    ])
    func malformedTextIsRejectedAtItsLine(text: String, expected: TraceParseError) {
        // Given malformed text
        // When it is read
        // Then the error names the offending line and what is wrong with it
        #expect(throws: expected) { try ScrollTrace(csv: text) }
    }

    @Test func theErrorReadsAsALineNumberedMessage() {
        // Given a file whose line 7 is not a sample
        let text = "time_ms,offset\n0,0\n16,1\n# ok\n\n33,2\nabc\n50,3\n"

        // When it is read
        let error = #expect(throws: TraceParseError.self) { try ScrollTrace(csv: text) }

        // Then the message names line 7 and quotes it
        #expect(error?.description == "trace line 7: expected two comma-separated numbers, got 'abc'")
    }

    // MARK: - Files

    @Test func aFileIsReadAndItsErrorsReported() throws {
        // Given a directory with a good trace file and a malformed one
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ScrollTraceCSVTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = ScrollTrace(samples: [Sample(time: .zero, offset: 0), Sample(time: .milliseconds(16), offset: 8)])
        let good = directory.appendingPathComponent("good.csv")
        let bad = directory.appendingPathComponent("bad.csv")
        try trace.csv().write(to: good, atomically: true, encoding: .utf8)
        try "time_ms,offset\n0,0\n16,oops\n".write(to: bad, atomically: true, encoding: .utf8)

        // When they are read
        // Then the good one gives the trace back
        #expect(try ScrollTrace(contentsOfCSV: good.path) == trace)
        // and the bad one names its line
        #expect(throws: TraceParseError(line: 3, reason: "expected a number for offset, got 'oops'")) {
            try ScrollTrace(contentsOfCSV: bad.path)
        }
        // and a missing file is an error too
        #expect(throws: (any Error).self) {
            try ScrollTrace(contentsOfCSV: directory.appendingPathComponent("missing.csv").path)
        }
    }
}
