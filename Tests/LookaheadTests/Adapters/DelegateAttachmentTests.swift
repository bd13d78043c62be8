import LookaheadTestSupport
import Testing

@testable import Lookahead

/// A view's delegate bookkeeping in every order apps make it happen —
/// coordinators made twice, released or detached in either order, a
/// delegate set later, another framework's proxy in front of ours or behind
/// it — over a model of UIKit's delegate slot: held weakly, and asked which
/// calls its delegate answers only when it is set.
@Suite(.queuedOnTheMainActor)
@MainActor
struct DelegateAttachmentTests {
    /// What answers a view's calls, by name.
    @MainActor
    protocol Answering: AnyObject {
        /// The calls it answers now.
        func answers() -> Set<String>
        /// Receives `call`; `false` for one it cannot answer (Objective-C's
        /// "unrecognized selector").
        func receive(_ call: String) -> Bool
    }

    /// UIKit's delegate slot: weak, and the calls its delegate answers read once, when it is set.
    @MainActor
    final class View: DelegateHost {
        private weak var delegate: AnyObject?
        private var answered: Set<String> = []
        var retainedProxy: AnyObject?
        /// Calls sent to a delegate that could not answer them: a crash in an app.
        private(set) var unrecognized: [String] = []

        var hostedDelegate: AnyObject? {
            get { delegate }
            set {
                delegate = newValue
                answered = (newValue as? any Answering)?.answers() ?? []
            }
        }

        /// UIKit sends `call` to its delegate if the delegate answered it when set.
        func send(_ call: String) {
            guard answered.contains(call), let delegate = delegate as? any Answering else { return }
            if !delegate.receive(call) { unrecognized.append(call) }
        }
    }

    /// The app's own delegate.
    final class AppDelegate: Answering {
        let implemented: Set<String>
        private(set) var received: [String] = []
        init(_ implemented: Set<String> = ["scroll", "select"]) { self.implemented = implemented }
        func answers() -> Set<String> { implemented }
        func receive(_ call: String) -> Bool {
            guard implemented.contains(call) else { return false }
            received.append(call)
            return true
        }
    }

    /// What a coordinator hears from its proxy.
    final class Coordinator {
        var scrolls = 0
    }

    /// Lookahead's proxy as LookaheadUIKit's behaves: answers `scroll`
    /// itself (reporting it), forwards everything else.
    final class Proxy: DelegateProxying, Answering {
        let attachment = DelegateAttachment()
        func answers() -> Set<String> {
            Set(["scroll"]).union(attachment.ask { ($0 as? any Answering)?.answers() ?? [] } ?? [])
        }
        func receive(_ call: String) -> Bool {
            if attachment.isCycling { return true }
            if call == "scroll" {
                (attachment.attachedCoordinator as? Coordinator)?.scrolls += 1
                _ = attachment.forward { ($0 as? any Answering)?.receive(call) }
                return true
            }
            return attachment.forward { ($0 as? any Answering)?.receive(call) ?? false } ?? false
        }
    }

    /// RxCocoa's order: a proxy set after ours, forwarding to the delegate it found (ours).
    final class ForwardingProxy: Answering {
        weak var forwardee: AnyObject?
        private(set) var received: [String] = []
        init(wrapping forwardee: AnyObject?) { self.forwardee = forwardee }
        func answers() -> Set<String> { Set(["scroll"]).union((forwardee as? any Answering)?.answers() ?? []) }
        func receive(_ call: String) -> Bool {
            received.append(call)
            return (forwardee as? any Answering)?.receive(call) ?? (call == "scroll")
        }
    }

    /// IGListKit's order: an adapter's proxy that forwards to the adapter, not to the delegate before it.
    final class AdapterProxy: Answering {
        private(set) var received: [String] = []
        func answers() -> Set<String> { ["scroll", "select"] }
        func receive(_ call: String) -> Bool {
            received.append(call)
            return true
        }
    }

    func attach(_ coordinator: Coordinator, to view: View) -> Proxy? {
        DelegateAttachment.attach(coordinator, to: view) { Proxy() } as? Proxy
    }

    @Test func aCoordinatorMadeTwiceThenTheFirstReleasedLeavesEveryCallAnswered() {
        // Given the app's delegate, and a coordinator made for the view twice (setup run again)
        let view = View()
        let app = AppDelegate()
        view.hostedDelegate = app
        var first: Coordinator? = Coordinator()
        var firstProxy = attach(first!, to: view)
        let second = Coordinator()
        let secondProxy = attach(second, to: view)

        // When the first goes away, with everything it kept
        first = nil
        firstProxy = nil
        view.send("select")
        view.send("scroll")

        // Then the app's delegate still gets every call, the second coordinator the scrolls, and nothing is unrecognized
        #expect(view.unrecognized.isEmpty)
        #expect(app.received == ["select", "scroll"])
        #expect(second.scrolls == 1)
        #expect(secondProxy?.attachment.forwardee === app, "one proxy: never wrapping another")
        withExtendedLifetime(firstProxy) {}
    }

    @Test func detachingTheEarlierCoordinatorLeavesTheNewerOneAttached() {
        // Given two coordinators made for one view, in turn
        let view = View()
        let app = AppDelegate()
        view.hostedDelegate = app
        let first = Coordinator()
        let proxy = attach(first, to: view)
        let second = Coordinator()
        _ = attach(second, to: view)

        // When the first detaches
        proxy?.attachment.detach(first)
        view.send("scroll")

        // Then the view still reports to the second
        #expect(view.hostedDelegate === proxy)
        #expect(second.scrolls == 1)
        #expect(first.scrolls == 0)
        #expect(app.received == ["scroll"])
    }

    @Test func theAttachedCoordinatorDetachedOrGoneGivesTheAppItsDelegateBack() {
        // Given a coordinator attached over the app's delegate
        let view = View()
        let app = AppDelegate()
        view.hostedDelegate = app
        let coordinator = Coordinator()
        let proxy = attach(coordinator, to: view)
        #expect(view.hostedDelegate === proxy)

        // When it detaches
        proxy?.attachment.detach(coordinator)

        // Then the view's delegate is the app's again, and the view keeps no proxy
        #expect(view.hostedDelegate === app)
        #expect(view.retainedProxy == nil)

        // And one that goes away without detaching hands the view back at the next call
        var gone: Coordinator? = Coordinator()
        _ = attach(gone!, to: view)
        gone = nil
        view.send("scroll")
        #expect(view.hostedDelegate === app)
        #expect(app.received == ["scroll"])
        #expect(view.unrecognized.isEmpty)
    }

    @Test func aDelegateSetLaterIsWrappedAgainOnceCellsAskWhileTheProxyHearsNothing() {
        // Given a coordinator attached before the app sets its delegate
        let view = View()
        let coordinator = Coordinator()
        let proxy = attach(coordinator, to: view)
        var diagnostics: [DelegateAttachment.Diagnostic] = []
        proxy?.attachment.onDiagnostic = { diagnostics.append($0) }
        let app = AppDelegate()
        view.hostedDelegate = app

        // When the list scrolls and cells keep asking, the proxy hearing nothing
        for _ in 0..<(DelegateAttachment.noticeReplacedAfter + 1) {
            view.send("scroll")
            proxy?.attachment.confirm(for: coordinator)
        }

        // Then the proxy wrapped the app's delegate, and said so
        #expect(view.hostedDelegate === proxy)
        #expect(proxy?.attachment.forwardee === app)
        #expect(diagnostics == [.delegateReplaced("AppDelegate")])
        view.send("scroll")
        view.send("select")
        #expect(coordinator.scrolls == 1)
        #expect(app.received.suffix(2) == ["scroll", "select"])
    }

    @Test func aForwardingProxySetLaterKeepsTheCoordinatorConnectedAsItIs() {
        // Given a coordinator over the app's delegate, then RxCocoa's proxy in front, forwarding to ours
        let view = View()
        let app = AppDelegate()
        view.hostedDelegate = app
        let coordinator = Coordinator()
        let proxy = attach(coordinator, to: view)
        let rx = ForwardingProxy(wrapping: view.hostedDelegate)
        view.hostedDelegate = rx

        // When the list scrolls, cells asking all along
        for _ in 0..<30 {
            view.send("scroll")
            proxy?.attachment.confirm(for: coordinator)
        }
        view.send("select")

        // Then nothing was wrapped again: every call went through RxCocoa's proxy, ours, then the app's delegate
        #expect(view.hostedDelegate === rx)
        #expect(coordinator.scrolls == 30)
        #expect(app.received.count == 31)
        #expect(rx.received.count == 31)
        #expect(view.unrecognized.isEmpty)
    }

    @Test func anAdaptersProxySetLaterIsWrappedAndKeepsItsCalls() {
        // Given a coordinator attached, then an IGListKit-like adapter setting the view's delegate
        let view = View()
        let coordinator = Coordinator()
        let proxy = attach(coordinator, to: view)
        let adapter = AdapterProxy()
        view.hostedDelegate = adapter

        // When the list scrolls and its cells ask
        for _ in 0..<(DelegateAttachment.noticeReplacedAfter + 1) {
            view.send("scroll")
            proxy?.attachment.confirm(for: coordinator)
        }
        view.send("scroll")
        view.send("select")

        // Then the proxy is in front of the adapter, and both hear the calls
        #expect(view.hostedDelegate === proxy)
        #expect(coordinator.scrolls == 1)
        #expect(adapter.received.suffix(2) == ["scroll", "select"])
    }

    @Test func twoProxiesForwardingToEachOtherEndTheChain() {
        // Given our proxy forwarding to a proxy that forwards back to ours
        let view = View()
        let coordinator = Coordinator()
        let proxy = attach(coordinator, to: view)
        let other = ForwardingProxy(wrapping: proxy)
        view.hostedDelegate = other
        for _ in 0..<(DelegateAttachment.noticeReplacedAfter + 1) { proxy?.attachment.confirm(for: coordinator) }
        #expect(proxy?.attachment.forwardee === other)

        // When the view sends a call either answers
        view.send("scroll")

        // Then it ends: the coordinator heard it once
        #expect(coordinator.scrolls == 1)
        #expect(other.received.count == 1)
    }

    @Test func aCallTheAppsDelegateCausesFromInsideAForwardedCallIsForwardedToo() {
        // Given an app's delegate that moves the content inside its scroll callback, once
        final class Adjusting: Answering {
            weak var view: View?
            private(set) var scrolls = 0
            func answers() -> Set<String> { ["scroll"] }
            func receive(_ call: String) -> Bool {
                scrolls += 1
                if scrolls == 1 { view?.send("scroll") }
                return true
            }
        }
        let view = View()
        let app = Adjusting()
        app.view = view
        view.hostedDelegate = app
        let coordinator = Coordinator()
        _ = attach(coordinator, to: view)

        // When the view scrolls
        view.send("scroll")

        // Then the nested scroll was reported and forwarded as a call of its own
        #expect(app.scrolls == 2)
        #expect(coordinator.scrolls == 2)
    }

    @Test func aProxyReportsNothingOfAViewItIsNotAttachedTo() {
        let view = View()
        let coordinator = Coordinator()
        let proxy = attach(coordinator, to: view)
        #expect(proxy?.attachment.isAttached(to: view) == true)
        #expect(proxy?.attachment.isAttached(to: View()) == false)
    }

    @Test func cellsOfASupersededCoordinatorAreReportedOnce() {
        let view = View()
        let first = Coordinator()
        let proxy = attach(first, to: view)
        var diagnostics: [DelegateAttachment.Diagnostic] = []
        proxy?.attachment.onDiagnostic = { diagnostics.append($0) }
        let second = Coordinator()
        _ = attach(second, to: view)
        for _ in 0..<5 { proxy?.attachment.confirm(for: first) }
        #expect(diagnostics == [.coordinatorSuperseded])
        withExtendedLifetime(second) {}
    }
}
