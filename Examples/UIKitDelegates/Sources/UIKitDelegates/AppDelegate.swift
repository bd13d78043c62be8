// The delegates app: one screen that does to its collection view's delegate
// what apps do — a coordinator made twice, the first released, the app's own
// delegate set after both — for its UI test to check that nothing crashes,
// the app's delegate hears every call, and the coordinator still plans.

#if canImport(UIKit)
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = DelegatesViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}
#endif
