// Result's catching initializer and get() with their error type kept, spelled
// out here because the standard library types them only from Swift 6: the
// iOS SDK check (Scripts/check-apple.sh) runs against an older interface,
// where both throw `any Error`.

extension Result {
    /// Runs `body`, keeping what it returns or the typed error it throws.
    @inlinable
    init(catchingTyped body: () throws(Failure) -> Success) {
        do {
            self = .success(try body())
        } catch {
            self = .failure(error)
        }
    }

    /// The success value, or throws the failure with its own type.
    @inlinable
    func typedGet() throws(Failure) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}
