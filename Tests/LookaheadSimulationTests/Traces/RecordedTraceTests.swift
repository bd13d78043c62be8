import Lookahead
import Testing

@testable import LookaheadSimulation

@Suite("Recorded traces", .timeLimit(.minutes(1)))
struct RecordedTraceTests {
    @Test("what the recorder writes reads back: samples, drag-end targets, screen and layout")
    func roundTrip() throws {
        var recorder = ScrollTraceRecorder()
        recorder.describe(
            viewport: Size(width: 390, height: 844), itemCount: 2_000, itemSize: Size(width: 96, height: 96))
        recorder.record(offset: 0, at: .seconds(5))
        recorder.record(offset: 10.5, at: .seconds(5) + .milliseconds(16))
        recorder.record(offset: 30, at: .seconds(5) + .milliseconds(33), targetOffset: 1_800)
        recorder.record(offset: 70, at: .seconds(5) + .milliseconds(50))

        let recorded = try RecordedTrace(csv: recorder.csv())

        #expect(recorded.trace.samples.map(\.offset) == [0, 10.5, 30, 70])
        #expect(recorded.trace.samples.map(\.time) == [.zero, .milliseconds(16), .milliseconds(33), .milliseconds(50)])
        #expect(recorded.releaseTargets == [ScrollTrace.Sample(time: .milliseconds(33), offset: 1_800)])
        #expect(recorded.viewport == Size(width: 390, height: 844))
        #expect(recorded.itemCount == 2_000)
        // 4 columns of 96 pt fit across 390 pt: a grid, 2 pt apart
        guard case .grid(let columns, let count, let spacing, let aspectRatio) = recorded.layout else {
            Issue.record("expected a grid, got \(String(describing: recorded.layout))")
            return
        }
        #expect(columns == 4 && count == 2_000 && spacing == 2 && aspectRatio == 1)
    }

    @Test("a plain two-column trace reads with no metadata; a list is laid out from a mean height")
    func plainAndList() throws {
        let plain = try RecordedTrace(csv: "time_ms,offset\n0,0\n100,50\n")
        #expect(plain.trace.samples.count == 2)
        #expect(plain.layout == nil && plain.releaseTargets.isEmpty)
        let list = try RecordedTrace(
            csv: "# viewport=390x844\n# items=3\n# item-height=120\ntime_ms,offset,target_offset\n0,0,\n")
        guard case .list(let heights) = list.layout else {
            Issue.record("expected a list")
            return
        }
        #expect(heights == [120, 120, 120])
    }

    @Test(
        "bad metadata and a bad target are refused with their line",
        arguments: [
            ("# viewport=wide\n0,0\n", 1, "viewport takes WIDTHxHEIGHT"),
            ("# items=-3\n0,0\n", 1, "items takes a count"),
            ("# item-height=0\n0,0\n", 1, "item-height takes points above 0"),
            ("time_ms,offset,target_offset\n0,0,\n16,5,far\n", 3, "target_offset"),
            ("0,0,\n16,5,\n8,9,\n", 3, "goes back"),
        ])
    func refused(text: String, line: Int, reason: String) {
        #expect {
            try RecordedTrace(csv: text)
        } throws: { error in
            guard let error = error as? TraceParseError else { return false }
            return error.line == line && error.reason.contains(reason)
        }
    }
}
