#if canImport(UIKit)
    import QuartzCore
    import UIKit

    /// Every call UIKit makes about the items, with the content offset and
    /// the time it was made: `prefetch` and `cancel` (the prefetch data
    /// source), `cell` (`cellForItemAt` / `cellForRowAt`), `willDisplay` and
    /// `didEndDisplaying` (the delegate), and `offset` once a frame while the
    /// view scrolls. Written as CSV, one line per item and call, so that the
    /// simulator can fit its `system` window to what UIKit really asked for.
    @MainActor
    final class PrefetchEventLog {
        private let configuration: HarnessConfiguration
        private let start = CACurrentMediaTime()
        private var lines: [String] = []

        init(configuration: HarnessConfiguration) {
            self.configuration = configuration
        }

        /// The write waiting for the view to come to rest.
        private var pendingWrite: DispatchWorkItem?

        /// Records `event` for each of `items` at the view's offset now; the
        /// log is written once nothing has happened for half a second (the
        /// view at rest), so a test that ends the app loses nothing.
        func record(_ event: String, items: [Int], in scrollView: UIScrollView) {
            let time = (CACurrentMediaTime() - start) * 1_000
            let offset = scrollView.contentOffset.y + scrollView.adjustedContentInset.top
            for item in items {
                lines.append(String(format: "%.3f,%.2f,%@,%d", time, offset, event, item))
            }
            pendingWrite?.cancel()
            let viewport = scrollView.bounds.size
            let write = DispatchWorkItem { [weak self] in MainActor.assumeIsolated { self?.write(viewport: viewport) } }
            pendingWrite = write
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.5, execute: write)
        }

        /// Records the offset alone (a frame of scrolling).
        func recordOffset(of scrollView: UIScrollView) {
            record("offset", items: [-1], in: scrollView)
        }

        /// Writes the whole log so far, replacing the file.
        func write(viewport: CGSize) {
            let text = (configuration.header(viewport: viewport) + lines).joined(separator: "\n") + "\n"
            do {
                try text.write(toFile: configuration.logPath, atomically: true, encoding: .utf8)
            } catch {
                NSLog("UIKitPrefetchLog: cannot write %@: %@", configuration.logPath, "\(error)")
            }
        }
    }
#endif
