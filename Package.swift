// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Lookahead",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Lookahead", targets: ["Lookahead"]),
        .executable(name: "lookahead", targets: ["lookahead"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The core: depends on swift-collections only, builds unchanged on Apple platforms.
        .target(
            name: "Lookahead",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        // The simulator: scroll traces × network model × strategies, driving the
        // core's real planner and scheduler in virtual time.
        .target(
            name: "LookaheadSimulation",
            dependencies: ["Lookahead"],
            swiftSettings: strictSettings
        ),
        // Release-build speed benchmarks and the baselines they are measured against.
        .target(
            name: "LookaheadBenchmarks",
            dependencies: ["Lookahead"],
            path: "Benchmarks/LookaheadBenchmarks",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "lookahead",
            dependencies: [
                "Lookahead",
                "LookaheadSimulation",
                "LookaheadBenchmarks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LookaheadTests",
            dependencies: ["Lookahead"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LookaheadSimulationTests",
            dependencies: ["LookaheadSimulation", "Lookahead"],
            swiftSettings: strictSettings
        ),
    ]
)
