// swift-tools-version: 6.2
// A small UIKit feed on Lookahead: a UICollectionView with a diffable data
// source, the adaptive PrefetchCoordinator and a Pager. Not built by the
// package's own `swift build`; see README.md.
import PackageDescription

let package = Package(
    name: "UIKitFeed",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [.library(name: "UIKitFeed", targets: ["UIKitFeed"])],
    dependencies: [.package(path: "../..", traits: [])],
    targets: [
        .target(
            name: "UIKitFeed",
            dependencies: [
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "LookaheadUIKit", package: "Lookahead"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
