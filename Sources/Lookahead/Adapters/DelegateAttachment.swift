// One scroll view's delegate bookkeeping, whatever an app does: one proxy per
// view however many coordinators are made for it, the app's own delegate
// forwarded to, a coordinator made again taking the proxy over, a delegate set
// behind Lookahead's back noticed and wrapped again, and no recursion between
// two forwarding proxies. Portable, so that every order is tested on Linux;
// LookaheadUIKit's proxy performs it on a UIScrollView.

/// What a view offers its delegate bookkeeping: its delegate (held weakly,
/// as UIKit holds it), and a slot that keeps an object alive as long as the
/// view (an associated object).
@MainActor
package protocol DelegateHost: AnyObject {
    /// The view's delegate.
    var hostedDelegate: AnyObject? { get set }
    /// What the view keeps alive for its delegate's sake: its proxy.
    var retainedProxy: AnyObject? { get set }
}

/// A proxy that a view's delegate slot holds: it reports to a coordinator
/// and forwards every call to the delegate the app set.
@MainActor
package protocol DelegateProxying: AnyObject {
    /// Its bookkeeping.
    var attachment: DelegateAttachment { get }
}

/// The bookkeeping of one view's proxy: which coordinator it reports to,
/// which delegate it forwards to, and when the view's delegate is no longer
/// the proxy.
///
/// - One proxy per view: a coordinator made for a view that has one takes it
///   over (the earlier coordinator is superseded: its `detach` and its going
///   away change nothing), so the app's delegate is never wrapped twice and
///   releasing either coordinator leaves no dangling forwardee.
/// - Detached or gone, the attached coordinator gives the view its app's
///   delegate back and lets go of the proxy.
/// - A delegate set after the proxy (an app, IGListKit's adapter) cuts the
///   proxy off: no call reaches it any more. A proxy that hears nothing
///   while ``noticeReplacedAfter`` cells of its coordinator ask for data
///   wraps the view's delegate again (``confirm(for:)``). One that still hears
///   its calls through a proxy set after it (RxCocoa's, which forwards to the
///   delegate it found) is left as it is.
/// - Two proxies forwarding to each other (ours wrapping RxCocoa's, which
///   wrapped ours again) end the chain: a question asked of the delegate
///   (``ask(_:)``, `responds(to:)`) that comes back to the proxy is answered
///   there, and from then on a call that comes back is neither reported
///   nor forwarded again (``isCycling``). A call that comes back otherwise —
///   the app's delegate moving the content inside `scrollViewDidScroll` —
///   is a new call, reported and forwarded.
@MainActor
package final class DelegateAttachment {
    /// The view, while attached.
    package private(set) weak var host: (any DelegateHost)?
    /// The delegate the app set, which the proxy forwards to.
    package var forwardee: AnyObject? { forwarding.withLock { $0.forwardee?.object } }
    /// The coordinator the proxy reports to.
    package private(set) weak var coordinator: AnyObject?
    private weak var proxy: AnyObject?
    /// Cells the coordinator asked for data for since the proxy last heard a call.
    private var requestsSinceCall = 0
    /// Whether a superseded coordinator's cells were reported once already.
    private var hasNotedSupersession = false
    /// Told when the proxy found itself cut off and wrapped the view's
    /// delegate again (the delegate that had replaced it), or when a
    /// superseded coordinator's cells keep asking: a debug-build diagnostic.
    package var onDiagnostic: ((Diagnostic) -> Void)?

    /// What the bookkeeping noticed that an app should hear of in a debug build.
    package enum Diagnostic: Equatable, Sendable {
        /// The view's delegate was set after the coordinator attached, cutting
        /// the proxy off; it wrapped the new delegate (named by its type).
        case delegateReplaced(String)
        /// A coordinator whose view another coordinator was attached to since is asked for cells.
        case coordinatorSuperseded
    }

    /// How many cells may ask through a coordinator while its proxy hears no
    /// delegate call before it takes itself to be cut off: more than the
    /// cells a view makes ahead of showing them without a scroll report.
    package static var noticeReplacedAfter: Int { 8 }

    /// The forwardee and how deep in a forwarded call the proxy is, behind a
    /// lock: an Objective-C proxy answers `responds(to:)` nonisolated.
    private let forwarding = LockedValue(Forwarding())

    private struct Forwarding {
        var forwardee: WeakObject?
        /// How deep in calls the proxy forwarded it is.
        var calls = 0
        /// How deep in questions it forwarded (`responds(to:)`) it is.
        var questions = 0
        /// Whether a question came back: the forwardee forwards to the proxy.
        var isCyclic = false
    }

    private struct WeakObject {
        weak var object: AnyObject?
    }

    package init() {}

    /// Attaches `coordinator` to `host`: through the proxy the view keeps
    /// already, or a new one from `makeProxy`.
    ///
    /// - Returns: the proxy, which the coordinator keeps.
    package static func attach(
        _ coordinator: AnyObject, to host: any DelegateHost, makeProxy: () -> any DelegateProxying
    ) -> any DelegateProxying {
        let proxy = (host.retainedProxy as? any DelegateProxying) ?? makeProxy()
        let attachment = proxy.attachment
        attachment.host = host
        attachment.proxy = proxy
        attachment.coordinator = coordinator
        attachment.requestsSinceCall = 0
        attachment.hasNotedSupersession = false
        host.retainedProxy = proxy
        attachment.install()
        return proxy
    }

    /// Makes the proxy the view's delegate, forwarding to the delegate the
    /// view had, unless the proxy is its delegate already.
    private func install() {
        guard let host, let proxy else { return }
        let current = host.hostedDelegate
        guard current !== proxy else { return }
        forwarding.withLock { $0.forwardee = current.map { WeakObject(object: $0) } }
        // Set again, the view asks its delegate anew which calls it answers.
        host.hostedDelegate = proxy
    }

    /// `coordinator` lets go of the view: if it is the one attached, the
    /// view gets its app's delegate back and lets go of the proxy; a
    /// superseded coordinator changes nothing.
    package func detach(_ coordinator: AnyObject) {
        guard self.coordinator === coordinator else { return }
        release()
    }

    /// The coordinator the proxy reports a call to, or `nil` — after giving
    /// the view its app's delegate back — once it went away. Each call the
    /// proxy hears goes through here: it is still connected.
    package var attachedCoordinator: AnyObject? {
        requestsSinceCall = 0
        if let coordinator { return coordinator }
        release()
        return nil
    }

    /// Whether `view` is the one attached: a proxy reports nothing of
    /// another view it is handed (one the app set the same delegate on).
    package func isAttached(to view: AnyObject) -> Bool {
        host === view
    }

    private func release() {
        coordinator = nil
        guard let host else { return }
        if host.hostedDelegate === proxy { host.hostedDelegate = forwardee }
        if host.retainedProxy === proxy { host.retainedProxy = nil }
        self.host = nil
    }

    /// A cell of `coordinator` asks for its data: if the proxy has heard no
    /// call for ``noticeReplacedAfter`` such cells and is no longer the
    /// view's delegate, it wraps the view's delegate again.
    ///
    /// - Returns: whether it wrapped it again.
    @discardableResult
    package func confirm(for coordinator: AnyObject) -> Bool {
        guard self.coordinator === coordinator else {
            if self.coordinator != nil, !hasNotedSupersession {
                hasNotedSupersession = true
                onDiagnostic?(.coordinatorSuperseded)
            }
            return false
        }
        requestsSinceCall += 1
        guard requestsSinceCall > Self.noticeReplacedAfter, let host, host.hostedDelegate !== proxy else {
            return false
        }
        let replacement = host.hostedDelegate.map { String(describing: type(of: $0)) } ?? "nil"
        install()
        requestsSinceCall = 0
        onDiagnostic?(.delegateReplaced(replacement))
        return true
    }

    /// Runs `call` with the app's delegate, unless there is none, or the
    /// call came back to the proxy through a delegate that forwards to it
    /// (``isCycling``): then `nil`. Safe from any thread.
    package nonisolated func forward<Result>(_ call: (AnyObject) -> Result) -> Result? {
        let forwardee: AnyObject? = forwarding.withLock { state in
            guard !(state.isCyclic && state.calls > 0), let forwardee = state.forwardee?.object else { return nil }
            state.calls += 1
            return forwardee
        }
        guard let forwardee else { return nil }
        defer { forwarding.withLock { $0.calls -= 1 } }
        return call(forwardee)
    }

    /// Asks the app's delegate `question` (which calls it answers), unless
    /// there is none or the question came back to the proxy through a
    /// delegate that forwards to it — then `nil`, and the proxy knows from
    /// then on that its delegate forwards back. Safe from any thread.
    package nonisolated func ask<Result>(_ question: (AnyObject) -> Result) -> Result? {
        let forwardee: AnyObject? = forwarding.withLock { state in
            guard state.questions == 0 else {
                state.isCyclic = true
                return nil
            }
            guard let forwardee = state.forwardee?.object else { return nil }
            state.questions += 1
            return forwardee
        }
        guard let forwardee else { return nil }
        defer { forwarding.withLock { $0.questions -= 1 } }
        return question(forwardee)
    }

    /// Whether the proxy is inside a call it forwarded to a delegate that
    /// forwards back to it: a call arriving now is that call again, to be
    /// neither reported nor forwarded.
    package nonisolated var isCycling: Bool {
        forwarding.withLock { $0.isCyclic && $0.calls > 0 }
    }
}
