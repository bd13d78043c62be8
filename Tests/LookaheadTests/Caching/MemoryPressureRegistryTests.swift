import Testing

@testable import Lookahead

/// Caches trim themselves on memory pressure, without the app wiring
/// anything: what the system (or the Apple glue) posts to their registry.
@Suite(.timeLimit(.minutes(1)))
struct MemoryPressureRegistryTests {
    func makeCache(_ registry: MemoryPressureRegistry?) -> MemoryCache<Int, String> {
        let cache = MemoryCache<Int, String>(costLimit: 1_000, countLimit: 100, pressureRegistry: registry)
        for key in 0..<10 { cache.setValue("\(key)", forKey: key, cost: 10) }
        return cache
    }

    @Test func aWarningTrimsHalfAndACriticalEventEverything() {
        // Given two caches that hear one registry
        let registry = MemoryPressureRegistry()
        let first = makeCache(registry)
        let second = makeCache(registry)

        // When the system warns, then presses critically
        registry.post(.warning)

        // Then each gave back its least recently used half, then everything
        #expect(first.totalCost == 50)
        #expect(second.totalCost == 50)
        #expect(first.value(forKey: 9) == "9")
        #expect(first.value(forKey: 0) == nil)
        registry.post(.critical)
        #expect(first.count == 0)
        #expect(second.count == 0)
    }

    @Test func aCacheThatOptsOutKeepsItsValues() {
        // Given a cache that turned trimming off, and one that never heard the registry
        let registry = MemoryPressureRegistry()
        let optedOut = makeCache(registry)
        optedOut.trimsOnMemoryPressure = false
        let deaf = makeCache(nil)

        // When the system presses critically
        registry.post(.critical)

        // Then neither gave anything back
        #expect(optedOut.count == 10)
        #expect(!optedOut.trimsOnMemoryPressure)
        #expect(deaf.count == 10)

        // And turned back on, it trims again
        optedOut.trimsOnMemoryPressure = true
        registry.post(.critical)
        #expect(optedOut.count == 0)
    }

    @Test func aCacheThatWentAwayIsForgotten() {
        // Given a registry that heard a cache now released
        let registry = MemoryPressureRegistry()
        var cache: MemoryCache<Int, String>? = makeCache(registry)
        let id = ObjectIdentifier(cache!)
        #expect(registry.contains(id))
        cache = nil

        // Then the registry no longer holds it, and posting reaches nobody
        #expect(!registry.contains(id))
        registry.post(.critical)
        _ = cache
    }

    @Test func aCacheMadeAsAnAppMakesOneHearsTheSystem() {
        // Given a cache made with the public initializer
        let cache = MemoryCache<Int, String>()

        // Then it listens to the process's registry by default, and can opt out
        #expect(cache.trimsOnMemoryPressure)
        #expect(MemoryPressureRegistry.shared.contains(ObjectIdentifier(cache)))
        let quiet = MemoryCache<Int, String>(trimsOnMemoryPressure: false)
        #expect(!quiet.trimsOnMemoryPressure)
    }
}

extension MemoryPressureRegistryTests {
    @Test func goingToTheBackgroundTrimsOnceHoweverManySayIt() {
        // Given a cache, and three observers that each report the app going to the background
        let registry = MemoryPressureRegistry()
        let cache = makeCache(registry)
        registry.appDidEnterBackground()
        registry.appDidEnterBackground()
        registry.appDidEnterBackground()

        // Then it gave back half, once
        #expect(cache.totalCost == 50)

        // And the next time the app goes away after being active, half again (in whole entries)
        registry.appDidBecomeActive()
        registry.appDidEnterBackground()
        #expect(cache.totalCost == 20)
    }
}
