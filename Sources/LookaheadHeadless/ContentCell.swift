/// A cell that shows one value, or nothing while its value loads: the `Cell`
/// of Apple's prefetching sample, whose background turns from white to red
/// when its data arrives.
///
/// ``ExampleFeedDataSource`` configures it; subclass it to render the value
/// (override `configure(with:)` and call `super`).

import Lookahead

@MainActor
open class ContentCell<Value: Sendable>: Cell {
    /// The value shown, or `nil` while the cell is blank.
    public private(set) var value: Value?

    /// How many times the cell was configured, blank or not.
    public private(set) var configurationCount = 0

    public required init(reuseIdentifier: String) {
        super.init(reuseIdentifier: reuseIdentifier)
    }

    /// Shows `value`, or a blank cell for `nil`.
    open func configure(with value: Value?) {
        self.value = value
        configurationCount += 1
    }

    /// Clears the value the previous item left behind.
    open override func prepareForReuse() {
        super.prepareForReuse()
        value = nil
    }
}
