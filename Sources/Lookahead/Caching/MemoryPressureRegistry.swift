// The caches that give memory back on their own when the system runs short:
// each MemoryCache joins a registry, which the system's memory-pressure
// events (a dispatch source on Apple platforms) and the Apple glue (the app
// going to the background) post to.

#if canImport(Darwin)
import Dispatch
#endif

/// Something that gives memory back under pressure: a ``MemoryCache``.
package protocol MemoryPressureResponder: AnyObject, Sendable {
    /// Gives memory back as `pressure` asks.
    func trim(for pressure: MemoryPressure)
}

/// The responders that hear memory pressure, weakly, and what posts it.
///
/// ``shared`` is the process's: every ``MemoryCache`` joins it unless told
/// not to (``MemoryCache/trimsOnMemoryPressure``), and on Apple platforms a
/// dispatch memory-pressure source posts `.warning` and `.critical` to it.
/// Tests make their own, so that what they post trims only their caches.
package final class MemoryPressureRegistry: Sendable {
    private struct Entry {
        weak var responder: (any MemoryPressureResponder)?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The system's event source, kept for as long as the registry.
        var source: AnyObject?
        /// Whether the app is in the background, as the glue last said.
        var isInBackground = false
    }

    private let state = LockedValue(State())

    /// The process's registry, listening to the system where it can.
    package static let shared: MemoryPressureRegistry = {
        let registry = MemoryPressureRegistry()
        registry.listenToTheSystem()
        return registry
    }()

    /// A registry nothing posts to but its owner.
    package init() {}

    /// Starts telling `responder` of memory pressure.
    package func register(_ responder: some MemoryPressureResponder) {
        state.withLock { $0.entries[ObjectIdentifier(responder)] = Entry(responder: responder) }
    }

    /// Stops telling the responder identified by `id`.
    package func unregister(_ id: ObjectIdentifier) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Whether the responder identified by `id` hears memory pressure.
    package func contains(_ id: ObjectIdentifier) -> Bool {
        state.withLock { $0.entries[id] != nil }
    }

    /// Tells every live responder of `pressure`, outside the registry's lock
    /// (a trimmed cache releases values, whose `deinit` may do anything).
    package func post(_ pressure: MemoryPressure) {
        let responders = state.withLock { state in
            state.entries = state.entries.filter { $0.value.responder != nil }
            return state.entries.values.compactMap(\.responder)
        }
        for responder in responders { responder.trim(for: pressure) }
    }

    /// The app went to the background: a `.warning`, once however many
    /// observers (UIKit's notification, each SwiftUI scene phase) say so.
    package func appDidEnterBackground() {
        let isNew = state.withLock { state in
            defer { state.isInBackground = true }
            return !state.isInBackground
        }
        if isNew { post(.warning) }
    }

    /// The app is active again: the next time it goes to the background counts.
    package func appDidBecomeActive() {
        state.withLock { $0.isInBackground = false }
    }

    /// On Apple platforms: the system's memory-pressure events, posted as
    /// they come (`.warning` and `.critical`, as ``MemoryPressure`` names them).
    private func listenToTheSystem() {
        #if canImport(Darwin)
        let source = DispatchSource.makeMemoryPressureSource(
            eventMask: [.warning, .critical], queue: .global(qos: .utility))
        source.setEventHandler { [weak self, weak source] in
            guard let event = source?.data else { return }
            self?.post(event.contains(.critical) ? .critical : .warning)
        }
        source.activate()
        state.withLock { $0.source = source }
        #endif
    }
}

extension MemoryCache: MemoryPressureResponder {}
