import Foundation
import Lookahead
import Testing

@testable import LookaheadSimulation

/// The trace format's carousel columns and the generator of carousel traces.
@Suite(.timeLimit(.minutes(1)))
struct CarouselTraceTests {
    typealias Sample = ScrollTrace.Sample

    /// A small feed: carousels of 20–60 items between plain cells.
    static func feed(seed: UInt64) -> CarouselFeedLayout {
        var random = SplitMix64(seed: seed)
        let rows: [CarouselFeedLayout.Row] = (0..<60).map { index in
            index % 4 == 3
                ? .cell(height: 80)
                : .carousel(height: 150, itemWidth: 120, itemCount: 20 + Int(random.next() % 41), spacing: 8)
        }
        return CarouselFeedLayout(width: 390, rows: rows)
    }

    static func trace(seed: UInt64, seconds: Int = 30) -> ScrollTrace {
        CarouselTraceGenerator(
            seed: seed, style: .skimming, duration: .seconds(seconds), feed: feed(seed: seed), viewportHeight: 844,
            swipeProbability: 0.5
        ).makeTrace()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func generatedTracesRoundTripThroughCSV(seed: UInt64) throws {
        // Given a generated trace with swipes
        let trace = Self.trace(seed: seed)
        #expect(!trace.scrolledRows.isEmpty, "seed \(seed): no swipe in 30 s")

        // When it is written and read back
        let text = trace.csv()
        let read = try ScrollTrace(csv: text)

        // Then it is the same trace, under the four-column header
        #expect(read.samples.count == trace.samples.count, "seed \(seed)")
        let same = read == trace
        #expect(same, "seed \(seed): the trace read back differs")
        #expect(text.hasPrefix(ScrollTrace.carouselCSVHeader + "\n"), "seed \(seed)")
    }

    @Test func mixedLinesAreReadAndOldTracesReadAsBefore() throws {
        // Given two-field lines, four-field lines and empty row columns
        let text = "time_ms,offset,row,row_offset\n0,0\n16,5,,\n32,5,3,40.5\n48,5, 3 , 81\n"

        // When it is read
        let trace = try ScrollTrace(csv: text)

        // Then only the samples naming a row carry one
        #expect(
            trace.samples == [
                Sample(time: .zero, offset: 0), Sample(time: .milliseconds(16), offset: 5),
                Sample(time: .milliseconds(32), offset: 5, row: 3, rowOffset: 40.5),
                Sample(time: .milliseconds(48), offset: 5, row: 3, rowOffset: 81),
            ])
        #expect(trace.scrolledRows == [3])
        // And a trace without the columns reads and writes as before
        let plain = try ScrollTrace(csv: "time_ms,offset\n0,0\n16,5\n")
        #expect(!plain.hasRowOffsets)
        #expect(plain.csv() == "time_ms,offset\n0,0.0\n16,5.0\n")
    }

    @Test(arguments: [
        ("0,0\n16,5,3\n", 2),  // three fields
        ("0,0\n16,5,3,\n", 2),  // a row without its offset
        ("0,0\n\n16,5,,7\n", 3),  // an offset without its row
        ("0,0\n16,5,-1,7\n", 2),  // a negative row
        ("0,0\n16,5,1.5,7\n", 2),  // a fractional row
        ("0,0\n16,5,10000001,7\n", 2),  // a row beyond the largest
        ("# c\n0,0\n16,5,2,nan\n", 3),  // a row offset that is not a number
        ("0,0\n16,5,2,1e999\n", 2),  // a row offset that is not finite
    ])
    func badCarouselColumnsAreRefusedWithTheirLine(text: String, line: Int) {
        #expect(throws: TraceParseError.self, "\(text.debugDescription)") { try ScrollTrace(csv: text) }
        do {
            _ = try ScrollTrace(csv: text)
        } catch {
            #expect(error.line == line, "\(text.debugDescription): \(error)")
        }
    }

    @Test func aRowsOffsetIsInterpolatedBetweenTheSamplesNamingIt() {
        // Given row 2 swiped from 0 to 100 between 1 s and 2 s, with samples of other rows and none between
        let trace = ScrollTrace(samples: [
            Sample(time: .zero, offset: 0),
            Sample(time: .seconds(1), offset: 0, row: 2, rowOffset: 0),
            Sample(time: .milliseconds(1_200), offset: 0, row: 5, rowOffset: 30),
            Sample(time: .seconds(2), offset: 0, row: 2, rowOffset: 100),
            Sample(time: .seconds(3), offset: 400),
        ])

        // Then the row's offset follows its own samples, 0 before, the last after
        #expect(trace.rowOffset(ofRow: 2, at: .milliseconds(500)) == 0)
        #expect(trace.rowOffset(ofRow: 2, at: .milliseconds(1_500)) == 50)
        #expect(trace.rowOffset(ofRow: 2, at: .seconds(3)) == 100)
        #expect(trace.rowOffset(ofRow: 5, at: .seconds(1)) == 0)
        #expect(trace.rowOffset(ofRow: 5, at: .seconds(2)) == 30)
        #expect(trace.rowOffset(ofRow: 7, at: .seconds(2)) == 0)
        // And the vertical offset is unchanged by them
        #expect(trace.offset(at: .milliseconds(2_500)) == 200)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func swipesStopTheFeedStayOnCarouselsAndWithinTheirContent(seed: UInt64) {
        // Given a generated trace
        let feed = Self.feed(seed: seed)
        let trace = Self.trace(seed: seed, seconds: 60)

        // Then it is the same for the same seed
        let same = trace == Self.trace(seed: seed, seconds: 60)
        #expect(same, "seed \(seed): not the same trace twice")
        var swipedFrames = 0
        var moves = 0
        for (index, sample) in trace.samples.enumerated() {
            guard let row = sample.row, let rowOffset = sample.rowOffset else { continue }
            swipedFrames += 1
            // a swipe is on a carousel, within its content, while the feed stands still
            guard case .carousel = feed.rows[row] else {
                Issue.record("seed \(seed): sample \(index) swipes row \(row), a plain cell")
                continue
            }
            #expect(rowOffset >= 0 && rowOffset <= feed.maxOffset(ofRow: row), "seed \(seed), sample \(index)")
            if index > 0 {
                let previous = trace.samples[index - 1]
                #expect(previous.offset == sample.offset, "seed \(seed): the feed moved during a swipe at \(index)")
                if previous.row == row, previous.rowOffset != rowOffset { moves += 1 }
            }
        }
        // And swipes happen and move their carousels
        #expect(swipedFrames > 0 && moves > 0, "seed \(seed): \(swipedFrames) swiped frames, \(moves) moves")
    }
}
