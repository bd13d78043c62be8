/// Turns the bytes read from a raw terminal into demo actions.
///
/// The keys are the pager's: `j` / `k` (or the arrow keys) scroll a row,
/// space flings, `g` / `G` jump to the top or the bottom, `q`, Escape or
/// Ctrl-C quit. Other bytes are ignored.
#if Tools
public enum DemoKeyMap {
    /// The action of one key, or `nil` if the key means nothing to the demo.
    public static func action(for byte: UInt8) -> DemoAction? {
        switch byte {
        case UInt8(ascii: "j"): .scroll(rows: 1)
        case UInt8(ascii: "k"): .scroll(rows: -1)
        case UInt8(ascii: " "): .fling
        case UInt8(ascii: "g"): .top
        case UInt8(ascii: "G"): .bottom
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03: .quit
        default: nil
        }
    }

    /// The actions of a chunk of input, in order.
    ///
    /// Arrow keys arrive as `ESC [ A` (up) and `ESC [ B` (down); a lone
    /// Escape quits.
    ///
    /// - Complexity: O(bytes).
    public static func actions(for bytes: some Sequence<UInt8>) -> [DemoAction] {
        let bytes = Array(bytes)
        var actions: [DemoAction] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                    switch bytes[index + 2] {
                    case UInt8(ascii: "A"): actions.append(.scroll(rows: -1))
                    case UInt8(ascii: "B"): actions.append(.scroll(rows: 1))
                    default: break
                    }
                    index += 3
                    continue
                }
                if index + 1 == bytes.count { actions.append(.quit) }
                index += 1
                continue
            }
            if let action = action(for: byte) { actions.append(action) }
            index += 1
        }
        return actions
    }
}
#endif
