// The progress line of a long vector run: one line on standard error, rewritten in place
// with a carriage return, shown only on a terminal and only once the run has taken a second.

/// A single updating `files done / total` line for `mfa vectors`.
///
/// Nothing is written when disabled (standard output is not a terminal) or before
/// ``delay`` seconds have passed; after that the line is rewritten at most every
/// ``interval`` seconds, and ``finish()`` blanks it so that the report starts on a clean line.
public struct ProgressLine {
    /// Seconds before the first line appears.
    public static let delay = 1.0
    /// Seconds between two rewrites.
    public static let interval = 0.1

    private let enabled: Bool
    private let clock: () -> Double
    private let write: (String) -> Void
    private var start: Double?
    private var lastWrite: Double?
    private var width = 0

    /// A progress line writing through `write` (standard error) when `enabled`, reading the
    /// time in seconds from `clock` (monotonic).
    public init(enabled: Bool, clock: @escaping () -> Double, write: @escaping (String) -> Void) {
        self.enabled = enabled
        self.clock = clock
        self.write = write
    }

    /// Reports `done` of `total` files.
    public mutating func update(done: Int, total: Int) {
        guard enabled else { return }
        let now = clock()
        guard let start else {
            self.start = now
            return
        }
        guard now - start >= Self.delay else { return }
        if let lastWrite, now - lastWrite < Self.interval, done < total { return }
        let text = "mfa vectors: \(done)/\(total) files"
        write("\r" + text + String(repeating: " ", count: max(0, width - text.count)))
        width = text.count
        lastWrite = now
    }

    /// Blanks the line if one was written.
    public mutating func finish() {
        guard width > 0 else { return }
        write("\r" + String(repeating: " ", count: width) + "\r")
        width = 0
    }
}
