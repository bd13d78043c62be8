// The parent side of `lookahead torture disk`: spawn a writing child, kill it
// at a seeded random moment, check the directory, repeat.

import Foundation
import Lookahead

/// Kills a process writing a ``DiskCache`` at random moments and checks,
/// after each kill, that a fresh cache on the directory reads back only what
/// the child committed (see ``DiskTortureLedger``).
public enum DiskTorture {
    /// Runs `configuration.kills` rounds, each spawning `childCommand` (the
    /// executable and arguments that run ``runChild(configuration:directory:expectedFile:round:)``
    /// with the round and files appended as `--child-round`, `--child-directory` and `--child-expected`).
    ///
    /// - Parameter progress: called after each round with the rounds done and the report so far.
    public static func run(
        configuration: DiskTortureConfiguration, childCommand: [String],
        progress: (Int, DiskTortureReport) -> Void = { _, _ in }
    ) throws -> DiskTortureReport {
        try configuration.validate()
        let root = FileManager.default.temporaryDirectory.appending(
            path: "lookahead-torture-disk-\(ProcessInfo.processInfo.processIdentifier)-\(configuration.seed)")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appending(path: "cache").path(percentEncoded: false)
        let expectedFile = root.appending(path: "expected.txt")

        var ledger = DiskTortureLedger(
            keyNames: (0..<configuration.keyCount).map(DiskTortureConfiguration.keyName))
        var report = DiskTortureReport(
            kills: 0, corruptReads: 0, wrongData: 0, limitExceeded: 0, missingEntries: 0, committedStores: 0,
            evictions: 0, seed: configuration.seed)
        var delays = TortureRandom(seed: configuration.seed, stream: 0xD15C)
        for round in 0..<configuration.kills {
            try Data(ledger.expectedLines().utf8).write(to: expectedFile)
            let output = try runAndKill(
                childCommand + [
                    "--child-round", "\(round)", "--child-directory", directory,
                    "--child-expected", expectedFile.path(percentEncoded: false),
                ],
                afterMilliseconds: 1 + delays.next(below: configuration.maxRunMilliseconds))
            let before = (ledger.committedStores, ledger.evictions)
            ledger.apply(output: output)
            let findings = try DiskTortureChecker.check(
                directory: directory, ledger: &ledger, sizeLimit: configuration.sizeLimit,
                trimRatio: configuration.trimRatio)
            report.kills += 1
            report.committedStores += ledger.committedStores - before.0
            report.evictions += ledger.evictions - before.1
            report.corruptReads += findings.corruptReads
            report.wrongData += findings.wrongData
            report.limitExceeded += findings.limitExceeded
            report.missingEntries += findings.missingEntries
            progress(round + 1, report)
        }
        report.corruptReads += ledger.childViolations["corrupt", default: 0]
        report.wrongData += ledger.childViolations["wrong", default: 0] + ledger.malformedLines
        report.missingEntries += ledger.childViolations["missing", default: 0]
        report.limitExceeded += ledger.childViolations["limit", default: 0]
        return report
    }

    /// The child's side: runs operations on the cache in `directory` until killed,
    /// writing its ledger lines to standard output.
    public static func runChild(
        configuration: DiskTortureConfiguration, directory: String, expectedFile: String, round: Int
    ) throws {
        let expected = (try? String(contentsOf: URL(filePath: expectedFile), encoding: .utf8)) ?? ""
        try DiskTortureChild.run(
            configuration: configuration, directory: directory, expected: expected, round: round,
            output: DiskTortureChild.writeToStandardOutput)
    }

    /// Starts `command`, sends it `SIGKILL` after `milliseconds`, and returns
    /// everything it wrote to standard output.
    private static func runAndKill(_ command: [String], afterMilliseconds milliseconds: Int) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(filePath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw DiskTortureError.cannotSpawn("cannot start \(command[0]): \(error)")
        }
        // Read while the child runs, so that a full pipe never stalls it.
        let collected = LockedValue<[UInt8]>([])
        let drained = DispatchSemaphore(value: 0)
        let reader = pipe.fileHandleForReading
        Thread {
            let data = reader.readDataToEndOfFile()
            collected.withLock { $0 = Array(data) }
            drained.signal()
        }.start()
        usleep(UInt32(milliseconds) * 1000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        drained.wait()
        return collected.withLock { $0 }
    }
}
