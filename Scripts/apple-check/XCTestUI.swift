// CHECK-ONLY. Never part of a product: Scripts/check-apple.sh emits it as a
// module named XCTest so that the UI test of Examples/UIKitPrefetchLog
// type-checks here, for the iPhoneOS SDK the check runs against holds no
// XCTest (Xcode keeps it in the platform's Developer folder). Each
// declaration is copied from Apple's documentation
// (developer.apple.com/documentation/xctest, the pages of the same names);
// only the members the harness uses are declared.

import CoreGraphics
@_exported import Foundation  // as XCTest itself does

/// XCTestCase: "The primary class for defining test cases, test methods, and performance tests."
open class XCTestCase: NSObject {
    public override init() {}
}

/// XCTAssertTrue: "Asserts that an expression is true."
public func XCTAssertTrue(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {}

/// XCUIGestureVelocity: "The velocity of a gesture, in points per second."
public struct XCUIGestureVelocity: RawRepresentable, Hashable, Sendable {
    public var rawValue: CGFloat
    public init(rawValue: CGFloat) { self.rawValue = rawValue }
    public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
    public static let `default` = XCUIGestureVelocity(rawValue: 0)
    public static let slow = XCUIGestureVelocity(rawValue: 0)
    public static let fast = XCUIGestureVelocity(rawValue: 0)
}

/// XCUIElementQuery: "A query for locating UI elements."
@MainActor
open class XCUIElementQuery: NSObject {
    /// subscript(_:): "Returns an element that matches the type and identifier."
    public subscript(key: String) -> XCUIElement { XCUIElement() }
    public var firstMatch: XCUIElement { XCUIElement() }
    /// element(boundBy:): "Returns an element that will use the index as its query."
    public func element(boundBy index: Int) -> XCUIElement { XCUIElement() }
}

/// XCTAssertFalse: "Asserts that an expression is false."
public func XCTAssertFalse(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {}

/// XCUIElement: "A UI element in an application."
@MainActor
open class XCUIElement: NSObject {
    public var collectionViews: XCUIElementQuery { XCUIElementQuery() }
    public var tables: XCUIElementQuery { XCUIElementQuery() }
    public var cells: XCUIElementQuery { XCUIElementQuery() }
    public var staticTexts: XCUIElementQuery { XCUIElementQuery() }
    /// label: "The label attribute of the element."
    public var label: String { "" }
    /// tap(): "Sends a tap event to a hittable point computed for the element."
    public func tap() {}
    public var exists: Bool { false }
    public func waitForExistence(timeout: TimeInterval) -> Bool { false }
    public func swipeUp(velocity: XCUIGestureVelocity) {}
    public func swipeDown(velocity: XCUIGestureVelocity) {}
}

/// XCUIApplication: "A proxy that can launch, monitor, and terminate a test application."
@MainActor
open class XCUIApplication: XCUIElement {
    public override init() {}
    public var launchArguments: [String] = []
    public var launchEnvironment: [String: String] = [:]
    public func launch() {}
    public func terminate() {}
}
