import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's peak resident set size, in bytes, or `nil` when it cannot be read.
///
/// On Linux this is `VmHWM` from `/proc/self/status`; elsewhere `getrusage`'s
/// `ru_maxrss` (bytes on Darwin, kilobytes on other systems).
public func peakResidentSetSize() -> Int? {
    #if os(Linux)
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
        return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        // "VmHWM:	   12345 kB"
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
        return kilobytes * 1024
    }
    return nil
    #else
    var usage = rusage()
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)
    #else
    return Int(usage.ru_maxrss) * 1024
    #endif
    #endif
}
