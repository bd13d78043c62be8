#if Tools
import Dispatch
import Lookahead

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The terminal I/O of the demo, and nothing else: raw mode, the alternate
/// screen, the cursor, the window size, key input, and Ctrl-C.
///
/// `enterFullScreen()` saves the terminal's settings, turns off echo and line
/// buffering (signals stay on: Ctrl-C still raises SIGINT), makes reads
/// non-blocking, switches to the alternate screen and hides the cursor.
/// `restore()` undoes all of it, at most once, from any thread: the driver
/// calls it on every way out, and the signal handler calls it too before it
/// ends a process that did not stop on the first Ctrl-C.
public final class DemoTerminal: Sendable {
    private struct State {
        var saved: termios?
        var isFullScreen = false
        var signalSources: [any DispatchSourceSignal] = []
        var interruptions = 0
        var resized = false
        /// The crash signals' handlers before `enterFullScreen()`, put back by `restore()`.
        var previousCrashActions: [(signal: Int32, action: sigaction)] = []
    }

    private let state = LockedValue(State())
    private let signalQueue = DispatchQueue(label: "lookahead.demo.signals")

    /// Enter the alternate screen, hide the cursor, clear it.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    /// Default rendition, show the cursor, leave the alternate screen.
    static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Creates a terminal handle; it changes nothing until `enterFullScreen()`.
    public init() {}

    deinit {
        restore()
    }

    /// Whether standard input and output are both terminals.
    public static var isInteractiveTerminal: Bool {
        isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
    }

    /// The size of the terminal on standard output, in characters, or `nil`
    /// if it is not a terminal or reports no size.
    public static func size() -> (width: Int, height: Int)? {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) }
        guard result == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Takes over the terminal: raw input without echo, non-blocking reads,
    /// the alternate screen, no cursor.
    ///
    /// - Throws: ``DemoTerminalError`` if the settings cannot be read or set
    ///   (standard input is not a terminal).
    public func enterFullScreen() throws(DemoTerminalError) {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw DemoTerminalError(
                "cannot read the terminal's settings (errno \(errno)); is standard input a terminal?")
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        Self.setReadTimeout(&raw)
        try state.withLock { (state: inout State) throws(DemoTerminalError) in
            guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
                throw DemoTerminalError("cannot put the terminal in raw mode (errno \(errno))")
            }
            state.saved = original
            state.isFullScreen = true
            state.previousCrashActions = Self.installCrashHandler()
        }
        Self.write(Self.enterSequence)
    }

    /// Gives the terminal back as it was: leaves the alternate screen, shows
    /// the cursor, restores the saved settings. Does nothing the second time.
    public func restore() {
        let saved: termios? = state.withLock { state in
            guard state.isFullScreen else { return nil }
            state.isFullScreen = false
            for (number, action) in state.previousCrashActions {
                var action = action
                sigaction(number, &action, nil)
            }
            state.previousCrashActions = []
            defer { state.saved = nil }
            return state.saved
        }
        guard var saved else { return }
        Self.write(Self.leaveSequence)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// The bytes typed since the last call; never waits.
    public func readInput() -> [UInt8] {
        guard state.withLock({ $0.isFullScreen }) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Catches SIGINT and SIGTERM: the first one only counts (the driver sees
    /// `wasInterrupted` and ends its loop the next frame, restoring the
    /// terminal and printing its summary); a second one restores the terminal
    /// and ends the process with status 130.
    public func watchInterruptions() {
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let count = self.state.withLock { state in
                    state.interruptions += 1
                    return state.interruptions
                }
                if count >= 2 {
                    self.restore()
                    _exit(130)
                }
            }
            source.resume()
            return source
        }
        state.withLock { $0.signalSources += sources }
    }

    /// Catches SIGWINCH, the terminal's change of size; see `takeResize()`.
    public func watchResizes() {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: signalQueue)
        source.setEventHandler { [weak self] in
            self?.state.withLock { $0.resized = true }
        }
        source.resume()
        state.withLock { $0.signalSources.append(source) }
    }

    /// Whether the terminal changed size since the last call.
    public func takeResize() -> Bool {
        state.withLock { state in
            defer { state.resized = false }
            return state.resized
        }
    }

    /// Whether the terminal is taken over (between `enterFullScreen()` and `restore()`).
    public var isFullScreen: Bool {
        state.withLock { $0.isFullScreen }
    }

    /// Whether SIGINT or SIGTERM arrived since `watchInterruptions()`.
    public var wasInterrupted: Bool {
        state.withLock { $0.interruptions > 0 }
    }

    /// Writes `text` to standard output, all of it.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                posixWrite(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// The signals a crash raises: a failed precondition (SIGILL or SIGTRAP),
    /// an abort, a bad access, an arithmetic fault.
    static let crashSignals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Installs `restoreTerminalAndCrash` for the crash signals and returns
    /// the handlers it replaced.
    ///
    /// A crash anywhere in the process (a failed precondition in a library)
    /// would otherwise leave the terminal raw, on the alternate screen,
    /// without a cursor — and the runtime's backtracer would wait for input
    /// on it. The price: while the grid is drawn a crash dumps core without
    /// the runtime's backtrace.
    private static func installCrashHandler() -> [(signal: Int32, action: sigaction)] {
        crashSignals.map { number in
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = restoreTerminalAndCrash
            #else
            action.__sigaction_handler.sa_handler = restoreTerminalAndCrash
            #endif
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            sigaction(number, &action, &previous)
            return (number, previous)
        }
    }

    private static func setReadTimeout(_ settings: inout termios) {
        // VMIN = 0, VTIME = 0: a read returns at once with what is there.
        withUnsafeMutableBytes(of: &settings.c_cc) { bytes in
            bytes[Int(VMIN)] = 0
            bytes[Int(VTIME)] = 0
        }
    }
}

/// `write(2)`, under a name the type's own `write(_:)` does not shadow.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(descriptor, bytes, count)
    #elseif canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
    #endif
}

/// The crash handler: puts the terminal back in a usable state with
/// async-signal-safe calls only (`tcgetattr`, `tcsetattr`, `write`,
/// `signal`, `raise`), then lets the signal end the process as it would have.
///
/// It cannot reach the saved settings (a signal handler must not take a
/// lock), so it turns the usual line-mode flags back on instead.
private func restoreTerminalAndCrash(_ number: Int32) {
    var settings = termios()
    if tcgetattr(STDIN_FILENO, &settings) == 0 {
        settings.c_lflag |= tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        settings.c_iflag |= tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
    let leave: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    _ = posixWrite(STDOUT_FILENO, leave.utf8Start, leave.utf8CodeUnitCount)
    let message: StaticString = "lookahead demo: crashed (signal); terminal restored\n"
    _ = posixWrite(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
    signal(number, SIG_DFL)
    raise(number)
}
#endif
