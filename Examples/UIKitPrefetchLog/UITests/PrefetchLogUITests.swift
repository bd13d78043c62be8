import XCTest

/// Scrolls the harness app under several layouts and swipe speeds, each run
/// logging UIKit's prefetch and display calls to a CSV in
/// `PREFETCH_LOG_DIR` (pass it as `TEST_RUNNER_PREFETCH_LOG_DIR` to
/// `xcodebuild test`; the app writes there directly, as simulator apps can).
final class PrefetchLogUITests: XCTestCase {
    struct Run {
        var layout: String
        var columns: Int
        var rowHeight: Int

        var name: String { "\(layout)-\(columns)col-\(rowHeight)pt" }
    }

    /// Lists of short and tall rows; grids of 2, 3 and 4 columns; a
    /// full-screen paging-sized row.
    let runs = [
        Run(layout: "list", columns: 1, rowHeight: 44),
        Run(layout: "list", columns: 1, rowHeight: 120),
        Run(layout: "list", columns: 1, rowHeight: 400),
        Run(layout: "grid", columns: 2, rowHeight: 200),
        Run(layout: "grid", columns: 3, rowHeight: 130),
        Run(layout: "grid", columns: 4, rowHeight: 100),
        Run(layout: "list", columns: 1, rowHeight: 844),
    ]

    /// Slow drags, ordinary swipes and flings, each way (points per second).
    let velocities: [XCUIGestureVelocity] = [.slow, .default, .fast, XCUIGestureVelocity(rawValue: 6_000)]

    @MainActor
    func testLogsUIKitsCallsForEveryLayoutAndSpeed() throws {
        let directory = ProcessInfo.processInfo.environment["PREFETCH_LOG_DIR"] ?? NSTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for run in runs {
            let path = (directory as NSString).appendingPathComponent("\(run.name).csv")
            let app = XCUIApplication()
            app.launchEnvironment = [
                "PREFETCH_LAYOUT": run.layout, "PREFETCH_COLUMNS": "\(run.columns)",
                "PREFETCH_ROW_HEIGHT": "\(run.rowHeight)", "PREFETCH_LOG_PATH": path,
            ]
            app.launch()
            let view =
                run.layout == "grid"
                ? app.collectionViews["prefetch-log-view"] : app.tables["prefetch-log-view"]
            XCTAssertTrue(view.waitForExistence(timeout: 20), "\(run.name): the view did not appear")
            for velocity in velocities {
                for _ in 0..<3 { view.swipeUp(velocity: velocity) }
                view.swipeDown(velocity: velocity)
            }
            // The last swipe's deceleration ends and the app writes its log half a
            // second later: wait for a write after the swipes.
            let swipesEnded = Date()
            func writtenSince() -> Bool {
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                return (attributes?[.modificationDate] as? Date).map { $0 > swipesEnded } ?? false
            }
            let deadline = swipesEnded.addingTimeInterval(15)
            while !writtenSince(), Date() < deadline { RunLoop.current.run(until: Date().addingTimeInterval(0.25)) }
            XCTAssertTrue(writtenSince(), "\(run.name): no log written at \(path) after the swipes")
            app.terminate()
        }
    }
}
