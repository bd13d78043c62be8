// How hard the system is pressing on memory, as an app hears it: the portable
// vocabulary the Apple glue translates memory warnings into, so that what a
// cache gives back is decided (and tested) here.

/// How hard the system is pressing on memory.
///
/// Pass it to ``MemoryCache/trim(for:)`` (or ``AsyncFetcher/trimMemory(for:)``):
/// - `.warning`: memory is getting tight, or the app went to the background
///   (`DispatchSource.makeMemoryPressureSource` `.warning`,
///   `UIApplication.didEnterBackgroundNotification`): the least recently used
///   half of the cache's cost is given back, the entries a user is most likely
///   to scroll back to stay.
/// - `.critical`: the system is about to terminate apps
///   (`UIApplication.didReceiveMemoryWarningNotification`, a `.critical`
///   pressure event): everything is given back, as Nuke's and Kingfisher's
///   caches do on a memory warning.
public enum MemoryPressure: Sendable, Hashable, CaseIterable {
    /// Memory is getting tight: give back the least recently used half.
    case warning
    /// Memory is critically low: give back everything.
    case critical
}
