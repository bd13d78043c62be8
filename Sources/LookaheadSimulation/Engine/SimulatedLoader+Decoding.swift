import Lookahead

// The decode stage (a scenario's `decoding`): a load's bytes are decoded
// before its data is delivered, through the same `DecodeSchedule` the image
// pipeline's decode queue asks — a slot per core, the most urgent first — and
// the load holds its concurrency slot until its decode ends, as the image
// fetcher's load does (the decode runs inside it).

extension SimulatedLoader {
    /// The decodes waiting and running, by transfer id.
    struct Decoding {
        let serviceTime: Duration
        var schedule: DecodeSchedule
        /// Loads whose bytes are in, waiting for a slot or decoding, by transfer.
        var loads: [Int: (id: Scheduler.LoadID, key: Int, start: Duration)] = [:]
        /// When each waiting decode asked for its slot.
        var asked: [Int: Duration] = [:]
        /// Decodes run, how many waited for a slot, and their waits.
        var decodes = 0
        var waits: [Duration] = []

        init(_ model: SimulationScenario.DecodeModel) {
            serviceTime = model.serviceTime
            schedule = DecodeSchedule(slots: model.slots)
        }

        var statistics: DecodingStatistics {
            let sorted = waits.sorted()
            let p99 = sorted.isEmpty ? Duration.zero : sorted[min(sorted.count - 1, (sorted.count * 99 + 99) / 100 - 1)]
            return DecodingStatistics(
                decodes: decodes, waited: sorted.count, waitP99Ms: StrategyResult.milliseconds(p99),
                waitMaxMs: StrategyResult.milliseconds(sorted.last ?? .zero))
        }
    }

    /// The bytes of `load` arrived at `time`: its decode runs now or waits,
    /// at the load's priority now.
    mutating func decode(_ transfer: Int, of load: (id: Scheduler.LoadID, key: Int, start: Duration), at time: Duration)
    {
        var priority = FetchPriority.normal
        if case .running(let running) = scheduler.phase(of: load.key) { priority = running }
        decoding!.loads[transfer] = load
        if decoding!.schedule.request(transfer, priority: priority) {
            startDecode(transfer, at: time)
        } else {
            decoding!.asked[transfer] = time
        }
    }

    mutating func startDecode(_ transfer: Int, at time: Duration) {
        decoding!.decodes += 1
        schedule(.decode(transfer), at: time + decoding!.serviceTime)
    }

    /// The decode of `transfer` ended at `time`: the next one starts, and the
    /// load, unless it was cancelled meanwhile, delivers its data.
    mutating func decodeFinished(_ transfer: Int, at time: Duration) -> Outcome? {
        if let next = decoding!.schedule.finished() {
            if let asked = decoding!.asked.removeValue(forKey: next) { decoding!.waits.append(time - asked) }
            startDecode(next, at: time)
        }
        guard let load = decoding!.loads.removeValue(forKey: transfer) else { return nil }
        return delivered(load, at: time)
    }

    /// The load of `transfer` was cancelled while its bytes were in: a waiting
    /// decode never runs; a running one runs out its slot, its image unused.
    /// - Returns: whether the load was decoding.
    mutating func cancelDecode(_ transfer: Int) -> Bool {
        guard decoding?.loads.removeValue(forKey: transfer) != nil else { return false }
        if decoding!.schedule.withdraw(transfer) { decoding!.asked[transfer] = nil }
        return true
    }
}

/// How a run's decodes went (scenarios with a decode stage): whether the
/// decode slots ever bound.
public struct DecodingStatistics: Sendable, Codable, Hashable {
    /// Decodes run (a cancelled load's that had started included).
    public var decodes: Int
    /// Of those, the ones that waited for a slot.
    public var waited: Int
    /// The 99th percentile and the longest of those waits.
    public var waitP99Ms: Double
    public var waitMaxMs: Double
}
