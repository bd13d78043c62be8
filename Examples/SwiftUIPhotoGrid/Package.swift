// swift-tools-version: 6.2
// A SwiftUI photo grid on Lookahead: rows report to an observable row
// prefetcher; on iOS 18 the scroll view's geometry drives the adaptive
// coordinator. Not built by the package's own `swift build`; see README.md.
import PackageDescription

let package = Package(
    name: "SwiftUIPhotoGrid",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "SwiftUIPhotoGrid", targets: ["SwiftUIPhotoGrid"])],
    dependencies: [.package(path: "../..", traits: [])],
    targets: [
        .target(
            name: "SwiftUIPhotoGrid",
            dependencies: [
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "LookaheadSwiftUI", package: "Lookahead"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
