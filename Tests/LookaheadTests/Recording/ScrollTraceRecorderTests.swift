import Foundation
import Lookahead
import Testing

@Suite("Scroll trace recorder", .timeLimit(.minutes(1)))
struct ScrollTraceRecorderTests {
    @Test("the CSV starts with the metadata and the header, times from the first sample")
    func csvLayout() {
        var recorder = ScrollTraceRecorder()
        recorder.describe(
            viewport: Size(width: 390, height: 844), itemCount: 500, itemSize: Size(width: 390, height: 120))
        recorder.record(offset: 0, at: .seconds(10))
        recorder.record(offset: 12.5, at: .seconds(10) + .microseconds(16_667))
        recorder.record(offset: 40, at: .seconds(10) + .milliseconds(33), targetOffset: 2_400)
        let lines = recorder.csv().split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "# lookahead-trace=1", "# viewport=390x844", "# items=500", "# item-size=390x120",
                "time_ms,offset,target_offset", "0,0,", "16.667,12.5,", "33,40,2400",
            ])
    }

    @Test("a varied layout is described by its mean item height")
    func variedLayout() {
        var recorder = ScrollTraceRecorder()
        recorder.describe(viewport: Size(width: 390, height: 844), itemHeights: [60, 120, 180])
        #expect(recorder.itemCount == 3)
        #expect(recorder.meanItemHeight == 120)
        #expect(recorder.csv().contains("# item-height=120\n"))
        #expect(!recorder.csv().contains("item-size"))
    }

    @Test("a full ring lets the oldest samples go and says how many")
    func ringKeepsTheMostRecent() {
        var recorder = ScrollTraceRecorder(capacity: 4)
        for frame in 0..<10 { recorder.record(offset: Double(frame), at: .milliseconds(frame * 10)) }
        #expect(recorder.samples.map(\.offset) == [6, 7, 8, 9])
        #expect(recorder.droppedCount == 6)
        let csv = recorder.csv()
        #expect(csv.contains("# dropped=6\n"))
        #expect(csv.hasSuffix("time_ms,offset,target_offset\n0,6,\n10,7,\n20,8,\n30,9,\n"))
        recorder.removeAll()
        #expect(recorder.samples.isEmpty)
        #expect(recorder.droppedCount == 0)
    }

    @Test("non-finite offsets are not recorded and a clock going back does not go back in the CSV")
    func badInput() {
        var recorder = ScrollTraceRecorder()
        recorder.record(offset: 0, at: .milliseconds(100))
        recorder.record(offset: .nan, at: .milliseconds(116))
        recorder.record(offset: 10, at: .milliseconds(90), targetOffset: .infinity)
        recorder.record(offset: 20, at: .milliseconds(132))
        #expect(recorder.samples.count == 3)
        #expect(recorder.csv().hasSuffix("0,0,\n0,10,\n32,20,\n"))
    }

    @Test("recording a planner's frame records its offset and time")
    func recordsFrames() {
        var recorder = ScrollTraceRecorder()
        let frame = ScrollFrame(
            visibleRect: Rect(origin: Point(x: 0, y: 300), size: Size(width: 390, height: 844)), velocity: 50,
            time: .seconds(2))
        recorder.record(frame, targetOffset: 900)
        #expect(recorder.samples == [ScrollTraceRecorder.Sample(time: .seconds(2), offset: 300, targetOffset: 900)])
    }
}

@Suite("Latency profile", .timeLimit(.minutes(1)))
struct LatencyProfileTests {
    @Test("keeps successful loads only, bounded, and answers quantiles")
    func recordsSuccesses() {
        var profile = LatencyProfile(capacity: 3)
        profile.record(FetchEvent<Int>.started(1))
        profile.record(FetchEvent<Int>.cancelled(1, duration: .milliseconds(5)))
        for milliseconds in [100, 200, 300, 400] {
            profile.record(FetchEvent<Int>.succeeded(1, duration: .milliseconds(milliseconds)))
        }
        profile.record(.milliseconds(-5))
        #expect(profile.recordedCount == 4)
        #expect(profile.loadMilliseconds.sorted() == [200, 300, 400])
        #expect(profile.milliseconds(atQuantile: 0.5) == 300)
        #expect(profile.milliseconds(atQuantile: 1) == 400)
        #expect(LatencyProfile().milliseconds(atQuantile: 0.5) == nil)
    }

    @Test("round-trips through JSON")
    func codable() throws {
        var profile = LatencyProfile()
        profile.record(.microseconds(120_500))
        let decoded = try JSONDecoder().decode(LatencyProfile.self, from: JSONEncoder().encode(profile))
        #expect(decoded == profile)
        #expect(decoded.loadMilliseconds == [120.5])
    }
}
