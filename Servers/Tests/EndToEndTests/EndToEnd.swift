// Every end-to-end suite is nested in this one serialized suite (`.serialized` applies to
// everything inside it), so a plain `swift test` runs one test at a time. In parallel, on two
// cores and with a debug-built engine, the in-process servers and the `mfa` children of
// thirty-odd tests starved each other until their 20 s request time-outs fired; one at a time,
// each server answers within its own test's time.

import Testing

/// The parent of every end-to-end suite (see the file comment).
@Suite(.serialized) enum EndToEnd {}
