// A long run of an app's collection view over a PrefetchCoordinator: seeded
// drags, flings, reversals, memory warnings and data that changes — reloads,
// pages appended, inserts, deletes and moves that shift index paths, items
// reloaded — on the headless view with UIKit's cell prefetching and call
// order, over a real AsyncFetcher whose loads land a few per frame. It checks
// what a user would see and what the coordinator keeps, frame after frame.

import Foundation
import Lookahead
import LookaheadHeadless

/// The coordinator soak: what it checks and what it found.
public struct CoordinatorSoakReport: Sendable, Encodable, Equatable {
    public var frames = 0
    public var seed: UInt64 = 0
    public var reloads = 0
    public var batchUpdates = 0
    public var memoryWarnings = 0
    /// Batch updates by kind: inserts, deletes, moves, items reloaded,
    /// pages appended, several changes in one update.
    public var updatesByKind: [String: Int] = [:]
    /// Updates told to the coordinator after the view applied them (the rest: before).
    public var updatesToldAfter = 0
    /// Frame-checks of a visible cell showing a value that is not its item's. A violation.
    public var wrongValues = 0
    /// Frame-checks of a visible cell blank, its value not cached, whose own
    /// request for its item is missing or demoted to `.veryLow` (a cell that
    /// left). A violation. (The adaptive policy asks `.low` for a visible
    /// cell a fling carries away: that is its decision, not a demotion.)
    public var blankCellsDemoted = 0
    /// Loads cancelled for a key on screen before and after the frame: a
    /// visible load restarted. A violation.
    public var visibleLoadsRestarted = 0
    /// Frame-checks of a request the fetcher serves that none of the
    /// coordinator's tables holds: a load left running untracked. A violation.
    public var untrackedRequests = 0
    /// The first few violations of the identity checks, with their frame.
    public var firstIdentityViolations: [String] = []
    /// Cells shown again without a new `cellForItemAt` (UIKit's kept cells).
    public var cellsShownAgain = 0
    public var loadsLanded = 0
    /// Frame-checks of a visible cell blank with no request to fill it. A violation.
    public var blankCellsWithoutRequest = 0
    /// The first few of them, with their frame.
    public var firstBlankCells: [String] = []
    /// Frame-checks of a visible cell blank though its item's value is in
    /// the cache: landed, its completion not yet run on the main actor.
    /// The soak's frames take microseconds, not 8 ms, so this measures how
    /// soon the machine runs the hop, not the coordinator.
    public var blankCellFramesWithData = 0
    /// The most consecutive frames one visible cell stayed blank with its
    /// value in the cache.
    public var longestBlankWithData = 0
    /// Cells on screen at the end still blank once every load was let land
    /// and every completion ran. A violation.
    public var cellsLeftBlank = 0
    /// Frames whose coordinator tables held more entries than
    /// ``tableLimit(window:cells:running:)`` allows that frame. A violation.
    public var framesOverLimit = 0
    /// The most entries the coordinator's tables held (prefetches, display
    /// requests, the core's), and the screen plus window on that frame.
    public var peakTableEntries = 0
    public var peakScreenAndWindow = 0
    /// The largest ratio of table entries to the screen plus the window.
    public var peakRatio = 0.0
    /// The largest share of the frame's table limit the tables held.
    public var peakShareOfLimit = 0.0
    /// What the coordinator's tables may hold on a frame, from what it
    /// serves then: a window item its handle, its key and the core's record
    /// (3); a cell the view holds — on screen, made ahead or just left — two
    /// handles (the planner's prefetch and UIKit's), its key, the core's
    /// prefetch record, the display table's entry and owner and the core's
    /// display record (7); a load still running for an item that left, its
    /// handle, key and record (3). A leak outgrows it; a fling whose loads lag,
    /// every visible cell waiting on its own request, does not.
    public static func tableLimit(window: Int, cells: Int, running: Int) -> Int {
        3 * window + 7 * cells + 3 * running
    }
    /// Resident memory after the first 1% of the frames and at the end, in MiB (Linux).
    public var residentMiBAfterWarmUp: Double?
    public var residentMiBAtEnd: Double?
    public var seconds = 0.0

    /// Blank cells without a request, cells left blank at the end, frames
    /// over the table limit, and the identity checks'.
    public var violations: Int {
        blankCellsWithoutRequest + cellsLeftBlank + framesOverLimit + identityViolations
    }

    /// Wrong values, demoted blank cells, visible loads restarted, untracked requests.
    public var identityViolations: Int { wrongValues + blankCellsDemoted + visibleLoadsRestarted + untrackedRequests }

    mutating func noteIdentityViolation(_ description: String) {
        if firstIdentityViolations.count < 8 { firstIdentityViolations.append(description) }
    }
}

/// Runs the coordinator soak; see ``CoordinatorSoakReport``.
@MainActor
public enum CoordinatorSoak {
    /// Runs `frames` frames from `seed`, the list's data changing about once
    /// every `changeEvery` frames and the identity checks made every
    /// `identityCheckEvery` frames (1: all), calling `progress` with the
    /// frames done every 10,000.
    public static func run(
        frames: Int, seed: UInt64, changeEvery: Int = 40, identityCheckEvery: Int = 1,
        progress: (Int) -> Void = { _ in }
    ) async -> CoordinatorSoakReport {
        precondition(frames >= 1, "CoordinatorSoak: frames must be at least 1, got \(frames)")
        precondition(changeEvery >= 1, "CoordinatorSoak: changeEvery must be at least 1, got \(changeEvery)")
        let start = ContinuousClock.now
        var report = CoordinatorSoakReport()
        report.frames = frames
        report.seed = seed
        var random = SplitMix64(seed: seed)
        let loads = SoakLoads()
        let clock = FrameClock()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 6, clock: clock) { key in
            try await loads.load(key)
        }
        var nextKey = 20_000
        let source = CoordinatedDataSource(keys: Array(0..<nextKey), fetcher: fetcher)
        let view = CollectionView(grid: CollectionView.Grid(columns: 4, spacing: 2, itemSize: .height(103.5)))
        source.register(on: view)
        view.isCellPrefetchingEnabled = true
        view.dataSource = source
        view.delegate = source
        let coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: view, policy: .adaptive) { path in
            source.keys.indices.contains(path.item) ? source.keys[path.item] : nil
        }
        source.coordinator = coordinator
        view.layoutIfNeeded()

        /// Per visible cell blank with its value cached, for how many frames.
        var blankWithData: [ItemPath: Int] = [:]
        var lastWindow = 0
        var y = 100_000.0
        var velocity = 0.0
        var framesLeft = 0
        var time = Duration.zero
        for frame in 0..<frames {
            // Drags, flings and rests in either direction, a few frames to a second each.
            if framesLeft == 0 {
                velocity = [0, 300, -300, 1_500, -1_500, 6_000, -6_000][Int(random.next() % 7)]
                framesLeft = 4 + Int(random.next() % 60)
            }
            framesLeft -= 1
            let maxY = max(0, view.contentSize.height - view.bounds.height)
            y = min(max(0, y + velocity / 120), maxY)
            if y == 0 || y == maxY { velocity = -velocity }
            time += .seconds(1) / 120
            clock.time.withLock { $0 = time }

            // Now and then, what an app's data does to the list.
            let checksIdentity = frame % max(1, identityCheckEvery) == 0
            let onScreenBefore = checksIdentity ? visibleKeys(in: view) : []
            // What was loading for them, as the fetcher decided it: a load's
            // cancellation handler runs whenever its task gets to it, frames later.
            var runningBefore: [Int: UInt64] = [:]
            for key in onScreenBefore { runningBefore[key] = fetcher.runningAttempt(of: key) }
            let warningsBefore = report.memoryWarnings
            var changed: String?
            if random.next() % UInt64(changeEvery) == 0 {
                var change = SoakDataChange(source: source, view: view, coordinator: coordinator)
                changed = change.make(using: &random, nextKey: &nextKey, report: &report)
            }
            if random.next() % 2_000 == 0 {
                coordinator.didReceiveMemoryWarning()
                report.memoryWarnings += 1
            }

            let kept = view.offscreenCellPaths
            view.step(to: Point(x: 0, y: y), at: time)
            report.cellsShownAgain += view.indexPathsForVisibleItems.count { kept.contains($0) }
            coordinator.scrollViewDidScroll(contentOffset: view.contentOffset, viewportSize: view.bounds.size, at: time)
            report.loadsLanded += loads.release(upTo: 3, using: &random)
            await Task.yield()

            if checksIdentity {
                checkIdentity(
                    in: view, source: source, coordinator: coordinator, fetcher: fetcher,
                    runningBefore: report.memoryWarnings == warningsBefore ? runningBefore : [:],
                    frame: "frame \(frame)" + (changed.map { " (\($0))" } ?? ""), report: &report)
            }
            // What a user sees: no cell blank without a request that will fill it.
            for path in source.blankCellsWithoutRequest(in: view) {
                report.blankCellsWithoutRequest += 1
                if report.firstBlankCells.count < 5 {
                    report.firstBlankCells.append("item \(path.item), frame \(frame)")
                }
            }
            // How long a landed value takes to reach its cell.
            var stillBlank: [ItemPath: Int] = [:]
            for path in source.blankCellsWithData(in: view) {
                let frames = (blankWithData[path] ?? 0) + 1
                stillBlank[path] = frames
                report.blankCellFramesWithData += 1
                report.longestBlankWithData = max(report.longestBlankWithData, frames)
            }
            blankWithData = stillBlank
            // What the coordinator keeps: bounded by what it serves. The window
            // a reload let go of is withdrawn a frame later, so the larger of
            // the two windows counts.
            let entries = coordinator.tableEntryCount
            let window = coordinator.planner.prefetched.count
            let limit = CoordinatorSoakReport.tableLimit(
                window: max(window, lastWindow),
                cells: view.indexPathsForVisibleItems.count + view.offscreenCellPaths.count,
                running: fetcher.runningLoadCount)
            lastWindow = window
            if entries > limit { report.framesOverLimit += 1 }
            report.peakShareOfLimit = max(report.peakShareOfLimit, Double(entries) / Double(max(1, limit)))
            let reach = view.indexPathsForVisibleItems.count + window
            let ratio = Double(entries) / Double(max(1, reach))
            if entries > report.peakTableEntries {
                report.peakTableEntries = entries
                report.peakScreenAndWindow = reach
            }
            report.peakRatio = max(report.peakRatio, ratio)

            if frame + 1 == max(1, frames / 100) { report.residentMiBAfterWarmUp = residentMiB() }
            if (frame + 1) % 10_000 == 0 { progress(frame + 1) }
        }
        report.residentMiBAtEnd = residentMiB()
        // Every cell on screen gets its data once the loads land: jump where
        // nothing was loaded, let every load land (those queued behind them
        // too) until the screen is full, or nothing has moved for 10 s.
        let maxY = max(0, view.contentSize.height - view.bounds.height)
        time += .seconds(1) / 120
        clock.time.withLock { $0 = time }
        view.step(to: Point(x: 0, y: (y + maxY / 2).truncatingRemainder(dividingBy: max(1, maxY))), at: time)
        coordinator.scrollViewDidScroll(contentOffset: view.contentOffset, viewportSize: view.bounds.size, at: time)
        var lastChange = ContinuousClock.now
        var blank = source.blankCells(in: view).count
        while blank > 0, ContinuousClock.now - lastChange < .seconds(10) {
            loads.releaseAll()
            await Task.yield()
            let now = source.blankCells(in: view).count
            if now != blank { (blank, lastChange) = (now, ContinuousClock.now) }
        }
        report.cellsLeftBlank = blank
        report.seconds = (ContinuousClock.now - start) / .seconds(1)
        loads.releaseAll()
        withExtendedLifetime((view, source, coordinator)) {}
        return report
    }

    /// The keys of the cells on screen.
    static func visibleKeys(in view: CollectionView) -> Set<Int> {
        Set(view.indexPathsForVisibleItems.compactMap { view.cellForItem(at: $0)?.representedIdentifier as? Int })
    }

    /// What identity promises, checked on the frame just shown: every cell
    /// shows its own item's value or waits on its own request for it; no
    /// load of an item on screen before and after the frame was stopped; the
    /// fetcher serves no request the coordinator does not hold.
    static func checkIdentity(
        in view: CollectionView, source: CoordinatedDataSource<String>, coordinator: PrefetchCoordinator<Int, String>,
        fetcher: AsyncFetcher<Int, String>, runningBefore: [Int: UInt64], frame: String,
        report: inout CoordinatorSoakReport
    ) {
        for path in view.indexPathsForVisibleItems {
            guard let cell = view.cellForItem(at: path) as? ContentCell<String>,
                let key = cell.representedIdentifier as? Int
            else { continue }
            if let value = cell.value {
                if value != "item \(key)" {
                    report.wrongValues += 1
                    report.noteIdentityViolation("\(frame): the cell of item \(key) shows \(value)")
                }
                continue
            }
            guard fetcher.fetchedData(for: key) == nil else { continue }
            let request = coordinator.displayRequest(of: cell)
            guard let request, request.key == key, request.request.priority > CoordinatorCore<ItemPath>.departedPriority
            else {
                report.blankCellsDemoted += 1
                report.noteIdentityViolation(
                    "\(frame): the blank cell of item \(key) at \(path) waits on "
                        + (request.map { "item \($0.key) at \($0.request.priority)" } ?? "nothing"))
                continue
            }
        }
        let onScreenAfter = visibleKeys(in: view)
        // A load running before the frame, for an item on screen throughout,
        // either runs on as the same attempt or has left its value (a memory
        // warning on the frame may drop that value: those frames are not checked).
        for (key, attempt) in runningBefore.sorted(by: { $0.key < $1.key }) where onScreenAfter.contains(key) {
            guard fetcher.runningAttempt(of: key) != attempt, fetcher.fetchedData(for: key) == nil else { continue }
            report.visibleLoadsRestarted += 1
            report.noteIdentityViolation("\(frame): the load of item \(key), on screen, was cancelled")
        }
        let held = Set(coordinator.heldRequests.map(\.interestID))
        for (interest, key) in fetcher.liveRequests where !held.contains(interest) {
            report.untrackedRequests += 1
            report.noteIdentityViolation("\(frame): a request for item \(key) that no table holds")
        }
    }

    /// The process's resident memory in MiB, where `/proc` tells it.
    static func residentMiB() -> Double? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
        return pages * 4_096 / 1_048_576
    }
}

/// The soak's loads: each waits until the run lets it land (a few per
/// frame, picked at random), or until it is cancelled.
final class SoakLoads: Sendable {
    private struct State {
        var waiting: [Int: (key: Int, continuation: CheckedContinuation<String, any Error>)] = [:]
        var cancelledEarly: Set<Int> = []
        var nextID = 0
    }

    private let state = LockedValue(State())

    func load(_ key: Int) async throws -> String {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return true }
                    state.waiting[id] = (key, continuation)
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiting: (key: Int, continuation: CheckedContinuation<String, any Error>)? = state.withLock { state in
                if let waiting = state.waiting.removeValue(forKey: id) { return waiting }
                state.cancelledEarly.insert(id)
                return nil
            }
            waiting?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Lands up to `count` waiting loads, picked at random; returns how many.
    func release(upTo count: Int, using random: inout SplitMix64) -> Int {
        var randomness = random
        let picked = state.withLock { state in
            var picked: [(key: Int, continuation: CheckedContinuation<String, any Error>)] = []
            var ids = state.waiting.keys.sorted()
            while picked.count < count, !ids.isEmpty {
                let id = ids.remove(at: Int(randomness.next() % UInt64(ids.count)))
                if let waiting = state.waiting.removeValue(forKey: id) { picked.append(waiting) }
            }
            return picked
        }
        random = randomness
        for waiting in picked { waiting.continuation.resume(returning: "item \(waiting.key)") }
        return picked.count
    }

    /// Lands every waiting load.
    func releaseAll() {
        let all = state.withLock { state in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for waiting in all { waiting.continuation.resume(returning: "item \(waiting.key)") }
    }
}
