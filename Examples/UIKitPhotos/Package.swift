// swift-tools-version: 6.2
// A UIKit photo grid on Lookahead's image path: thumbnails decoded off the
// main thread for the cell's size, kept by their decoded bytes, loaded ahead
// by the adaptive coordinator. Not built by the package's own `swift build`;
// see README.md.
import PackageDescription

let package = Package(
    name: "UIKitPhotos",
    platforms: [.iOS(.v16)],
    products: [.library(name: "UIKitPhotos", targets: ["UIKitPhotos"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(
            name: "UIKitPhotos",
            dependencies: [
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "LookaheadUIKit", package: "Lookahead"),
                .product(name: "LookaheadImages", package: "Lookahead"),
                .product(name: "LookaheadURLSession", package: "Lookahead"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
