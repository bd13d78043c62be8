#if canImport(UIKit)
    import UIKit

    /// The harness app: one screen, a collection view or a table view as the
    /// launch environment says (``HarnessConfiguration``), logging UIKit's calls.
    @main
    final class AppDelegate: UIResponder, UIApplicationDelegate {
        var window: UIWindow?

        func application(
            _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        ) -> Bool {
            let configuration = HarnessConfiguration(environment: ProcessInfo.processInfo.environment)
            let window = UIWindow(frame: UIScreen.main.bounds)
            switch configuration.layout {
            case .grid: window.rootViewController = LoggingCollectionViewController(configuration: configuration)
            case .list: window.rootViewController = LoggingTableViewController(configuration: configuration)
            }
            window.makeKeyAndVisible()
            self.window = window
            return true
        }
    }
#endif
