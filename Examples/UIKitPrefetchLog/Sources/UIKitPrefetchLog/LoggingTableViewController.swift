#if canImport(UIKit)
    import UIKit

    /// A table view of fixed-height rows, its prefetch data source and
    /// delegate logging every call (table views prefetch cells too since iOS 15).
    final class LoggingTableViewController: UITableViewController, UITableViewDataSourcePrefetching {
        private let configuration: HarnessConfiguration
        private let log: PrefetchEventLog

        init(configuration: HarnessConfiguration) {
            self.configuration = configuration
            log = PrefetchEventLog(configuration: configuration)
            super.init(style: .plain)
        }

        @available(*, unavailable)
        required init?(coder: NSCoder) {
            fatalError("UIKitPrefetchLog builds its views in code")
        }

        override func viewDidLoad() {
            super.viewDidLoad()
            tableView.accessibilityIdentifier = "prefetch-log-view"
            tableView.register(UITableViewCell.self, forCellReuseIdentifier: "cell")
            tableView.rowHeight = configuration.rowHeight
            tableView.estimatedRowHeight = configuration.rowHeight
            tableView.prefetchDataSource = self
        }

        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
            configuration.itemCount
        }

        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            log.record("cell", items: [indexPath.row], in: tableView)
            let cell = tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
            var content = cell.defaultContentConfiguration()
            content.text = "Row \(indexPath.row)"
            cell.contentConfiguration = content
            return cell
        }

        func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
            log.record("prefetch", items: indexPaths.map(\.row), in: tableView)
        }

        func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
            log.record("cancel", items: indexPaths.map(\.row), in: tableView)
        }

        override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
            log.record("willDisplay", items: [indexPath.row], in: tableView)
        }

        override func tableView(
            _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
        ) {
            log.record("didEndDisplaying", items: [indexPath.row], in: tableView)
        }

        override func scrollViewDidScroll(_ scrollView: UIScrollView) {
            log.recordOffset(of: scrollView)
        }
    }
#endif
