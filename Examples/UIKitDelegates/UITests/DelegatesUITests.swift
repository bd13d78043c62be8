import XCTest

/// The delegates app under a finger: the coordinator made twice and the
/// app's delegate set after it must leave every call to the app's delegate
/// answered (no unrecognized selector), and the coordinator planning.
final class DelegatesUITests: XCTestCase {
    @MainActor
    func testTheAppsDelegateHearsEveryCallAndTheCoordinatorStillPlans() throws {
        let app = XCUIApplication()
        app.launch()
        let grid = app.collectionViews["grid"]
        XCTAssertTrue(grid.waitForExistence(timeout: 20), "the grid did not appear")
        let status = app.staticTexts["status"]

        // Scrolling reaches the app's delegate, and the coordinator loads ahead of the screen
        for _ in 0..<3 { grid.swipeUp(velocity: .default) }
        XCTAssertTrue(status.label.contains("scrolls"), status.label)
        XCTAssertFalse(status.label.contains("scrolls 0 "), "the app's delegate heard no scroll: \(status.label)")
        let loads = Int(status.label.components(separatedBy: "loads ").last ?? "") ?? 0
        XCTAssertTrue(loads > 60, "the coordinator loaded only what was shown (\(loads)): it was cut off")

        // A tap reaches the app's delegate
        grid.cells.element(boundBy: 0).tap()
        XCTAssertTrue(status.label.hasPrefix("selected ") && !status.label.hasPrefix("selected none"), status.label)
    }
}
