// The machine's physical memory, read without Foundation, for the default
// memory budget.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The machine's physical memory in bytes, or `nil` where it cannot be read.
func physicalMemoryBytes() -> UInt64? {
    #if canImport(Darwin)
    var bytes: UInt64 = 0
    var size = MemoryLayout<UInt64>.size
    guard sysctlbyname("hw.memsize", &bytes, &size, nil, 0) == 0 else { return nil }
    return bytes
    #elseif canImport(Glibc) || canImport(Musl)
    let pages = sysconf(Int32(_SC_PHYS_PAGES))
    let pageSize = sysconf(Int32(_SC_PAGESIZE))
    guard pages > 0, pageSize > 0 else { return nil }
    return UInt64(pages).multipliedReportingOverflow(by: UInt64(pageSize)).partialValue
    #else
    return nil
    #endif
}
