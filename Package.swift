// swift-tools-version: 6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Everything beyond the library: the command-line tool's parser and logging,
/// the feed server (Hummingbird), the HTTP loader (AsyncHTTPClient) and the
/// tests that use them. Off by default, so that an app that adds the package
/// (from Xcode or SwiftPM, with no option set) resolves swift-collections and
/// nothing else (`Scripts/check-consumer.sh`); from a clone, turn it on:
/// `swift run --traits Tools lookahead simulate`, `swift test --traits Tools`.
/// Without it the tools' targets build empty.
let tools: TargetDependencyCondition? = .when(traits: ["Tools"])

let package = Package(
    name: "Lookahead",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Lookahead", targets: ["Lookahead"]),
        .library(name: "LookaheadSimulation", targets: ["LookaheadSimulation"]),
        .library(name: "LookaheadUIKit", targets: ["LookaheadUIKit"]),
        .library(name: "LookaheadSwiftUI", targets: ["LookaheadSwiftUI"]),
        .library(name: "LookaheadURLSession", targets: ["LookaheadURLSession"]),
        .library(name: "LookaheadImages", targets: ["LookaheadImages"]),
        .executable(name: "lookahead", targets: ["lookahead"]),
    ],
    traits: [
        .trait(
            name: "Tools",
            description: "The lookahead tool, feed server, HTTP loader, demo and their tests (not needed by apps)."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The core: depends on swift-collections only, builds unchanged on Apple platforms.
        .target(
            name: "Lookahead",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        // UIKit's collection and table views without UIKit: the data source,
        // prefetch data source and cell lifecycle contract on Linux, for the
        // tests, the simulator's checks and the demo. No app product exposes it.
        .target(
            name: "LookaheadHeadless",
            dependencies: ["Lookahead"],
            swiftSettings: strictSettings
        ),
        // Images for apps without an image library: bytes on disk, decoded off
        // the main thread for the cell's size (ImageIO on Apple platforms),
        // kept in memory by their decoded bytes; its own product, so that the
        // core stays Foundation-free and image-free.
        .target(
            name: "LookaheadImages",
            dependencies: ["Lookahead", "LookaheadUIKit"],
            swiftSettings: strictSettings
        ),
        // The URLSession loader apps use: Foundation stays out of the core.
        .target(
            name: "LookaheadURLSession",
            dependencies: ["Lookahead"],
            swiftSettings: strictSettings
        ),
        // Apple glue: forwards UIKit's and SwiftUI's scrolling to the core's
        // PrefetchCoordinator. Every file is under `#if canImport(UIKit)` /
        // `#if canImport(SwiftUI)`: empty modules on Linux.
        .target(
            name: "LookaheadUIKit",
            dependencies: ["Lookahead"],
            swiftSettings: strictSettings
        ),
        // Its rows' trimming follows the app's background state, as the UIKit glue's does.
        .target(
            name: "LookaheadSwiftUI",
            dependencies: ["Lookahead", "LookaheadUIKit"],
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
        // Torture tools: seeded random operation mixes over the real fetcher and
        // disk cache, checked against reference models (`lookahead torture`).
        .target(
            name: "LookaheadTorture",
            dependencies: ["Lookahead", "LookaheadHeadless"],
            swiftSettings: strictSettings
        ),
        // The local feed server (a Hacker-News-style API with latency and fault
        // injection) for the demo, the real replay and the integration tests.
        .target(
            name: "LookaheadServer",
            dependencies: [
                "Lookahead",
                .product(name: "Hummingbird", package: "hummingbird", condition: tools),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
            ],
            swiftSettings: strictSettings
        ),
        // The HTTP loader that plugs into AsyncFetcher.
        .target(
            name: "LookaheadHTTP",
            dependencies: [
                "Lookahead",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
            ],
            swiftSettings: strictSettings
        ),
        // Real-network drivers: the terminal demo and the real-time replay of a
        // simulator scenario against the feed server.
        .target(
            name: "LookaheadLive",
            dependencies: [
                "Lookahead",
                "LookaheadHeadless",
                "LookaheadSimulation",
                "LookaheadServer",
                "LookaheadHTTP",
                .product(name: "Logging", package: "swift-log", condition: tools),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "lookahead",
            dependencies: [
                "Lookahead",
                "LookaheadSimulation",
                "LookaheadBenchmarks",
                "LookaheadTorture",
                "LookaheadServer",
                "LookaheadHTTP",
                "LookaheadLive",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: tools),
            ],
            swiftSettings: strictSettings
        ),
        // What several test targets share: the one thread their heavy tests run on.
        .target(
            name: "LookaheadTestSupport",
            path: "Tests/LookaheadTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LookaheadTests",
            dependencies: ["Lookahead", "LookaheadHeadless", "LookaheadImages", "LookaheadTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LookaheadTortureTests",
            dependencies: ["LookaheadTorture", "Lookahead"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LookaheadSimulationTests",
            dependencies: ["LookaheadSimulation", "Lookahead", "LookaheadTestSupport"],
            swiftSettings: strictSettings
        ),
        // Loopback integration tests: each starts its own server on port 0.
        .testTarget(
            name: "LookaheadNetworkTests",
            dependencies: [
                "Lookahead",
                "LookaheadServer",
                "LookaheadHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
            ],
            swiftSettings: strictSettings
        ),
        // The URLSession loader against the feed server on loopback.
        .testTarget(
            name: "LookaheadURLSessionTests",
            dependencies: [
                "Lookahead", "LookaheadURLSession", "LookaheadServer", "LookaheadTestSupport",
                .product(name: "Logging", package: "swift-log", condition: tools),
            ],
            swiftSettings: strictSettings
        ),
        // The command-line tool's option checks, through its commands' own parsers.
        .testTarget(
            name: "LookaheadCommandTests",
            dependencies: ["lookahead"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LookaheadLiveTests",
            dependencies: [
                "LookaheadLive", "LookaheadSimulation", "Lookahead", "LookaheadHeadless", "LookaheadServer",
                "LookaheadHTTP", "LookaheadTestSupport",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
