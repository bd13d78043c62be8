#if canImport(UIKit)
    import UIKit

    /// What one run of the harness shows: a grid or a list, its columns and
    /// row height, and where the log goes — read from the launch environment,
    /// so that the UI test can run every configuration in one app.
    struct HarnessConfiguration {
        enum Layout: String {
            case grid
            case list
        }

        var layout: Layout
        /// Columns of the grid (a list has one).
        var columns: Int
        /// Row height in points.
        var rowHeight: CGFloat
        var itemCount: Int
        /// The CSV file the log is written to.
        var logPath: String

        /// Reads `PREFETCH_LAYOUT` (`grid`, `list`), `PREFETCH_COLUMNS`,
        /// `PREFETCH_ROW_HEIGHT`, `PREFETCH_ITEMS` and `PREFETCH_LOG_PATH`;
        /// a 3-column grid of 120 pt rows, 3,000 items, logged to the app's
        /// temporary folder, for any that is missing.
        init(environment: [String: String]) {
            layout = environment["PREFETCH_LAYOUT"].flatMap(Layout.init(rawValue:)) ?? .grid
            columns = max(1, environment["PREFETCH_COLUMNS"].flatMap(Int.init) ?? (layout == .grid ? 3 : 1))
            rowHeight = CGFloat(environment["PREFETCH_ROW_HEIGHT"].flatMap(Double.init) ?? 120)
            itemCount = max(1, environment["PREFETCH_ITEMS"].flatMap(Int.init) ?? 3_000)
            logPath =
                environment["PREFETCH_LOG_PATH"]
                ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("prefetch-log.csv")
        }

        /// The header lines of the CSV: what the simulator needs to rebuild the layout.
        func header(viewport: CGSize) -> [String] {
            [
                "# layout=\(layout.rawValue)",
                "# columns=\(columns)",
                "# item-height=\(rowHeight)",
                "# items=\(itemCount)",
                "# viewport=\(Int(viewport.width))x\(Int(viewport.height))",
                "time_ms,offset,event,item",
            ]
        }
    }
#endif
