// swift-tools-version: 6.2
// A SwiftUI photo grid on Lookahead: one modifier on the scroll view, one
// FetchedContent per cell, real photos through the image path, for iOS 16,
// 17 and 18. Not built by the package's own `swift build`; see README.md.
import PackageDescription

let package = Package(
    name: "SwiftUIPhotoGrid",
    platforms: [.iOS(.v16)],
    products: [.library(name: "SwiftUIPhotoGrid", targets: ["SwiftUIPhotoGrid"])],
    dependencies: [.package(path: "../..", traits: [])],
    targets: [
        .target(
            name: "SwiftUIPhotoGrid",
            dependencies: [
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "LookaheadSwiftUI", package: "Lookahead"),
                .product(name: "LookaheadImages", package: "Lookahead"),
                .product(name: "LookaheadURLSession", package: "Lookahead"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
