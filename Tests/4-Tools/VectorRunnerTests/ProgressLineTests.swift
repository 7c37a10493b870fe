// The progress line of `mfa vectors`: silent when piped and for short runs, one rewritten
// line on a terminal after a second, blanked at the end.

import Testing
import VectorRunner

/// A clock the test moves by hand, and the text written.
final class ProgressRecorder: @unchecked Sendable {
    var now = 0.0
    var written: [String] = []
}

@Suite struct ProgressLineTests {
    static func line(enabled: Bool, _ recorder: ProgressRecorder) -> ProgressLine {
        ProgressLine(enabled: enabled, clock: { recorder.now }, write: { recorder.written.append($0) })
    }

    @Test func aLongRunOnATerminalRewritesOneLineAndBlanksIt() {
        let recorder = ProgressRecorder()
        var progress = Self.line(enabled: true, recorder)
        progress.update(done: 0, total: 3)
        recorder.now = 0.5
        progress.update(done: 1, total: 3)
        #expect(recorder.written.isEmpty)
        recorder.now = 1.2
        progress.update(done: 2, total: 3)
        recorder.now = 1.25
        progress.update(done: 2, total: 3)  // within the interval: not rewritten
        recorder.now = 1.26
        progress.update(done: 3, total: 3)  // the last file is always shown
        progress.finish()
        #expect(recorder.written == ["\rmfa vectors: 2/3 files", "\rmfa vectors: 3/3 files",
                                     "\r" + String(repeating: " ", count: 22) + "\r"])
        #expect(!recorder.written.joined().contains("\n"))
    }

    @Test func aShortRunWritesNothing() {
        let recorder = ProgressRecorder()
        var progress = Self.line(enabled: true, recorder)
        progress.update(done: 0, total: 2)
        recorder.now = 0.9
        progress.update(done: 2, total: 2)
        progress.finish()
        #expect(recorder.written.isEmpty)
    }

    @Test func whenPipedNothingIsWritten() {
        let recorder = ProgressRecorder()
        var progress = Self.line(enabled: false, recorder)
        progress.update(done: 0, total: 2)
        recorder.now = 5
        progress.update(done: 1, total: 2)
        progress.finish()
        #expect(recorder.written.isEmpty)
    }
}
