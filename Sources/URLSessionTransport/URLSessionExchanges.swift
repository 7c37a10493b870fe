// The session delegate behind URLSessionTransport: it sees each answer as it arrives, so it can
// refuse what the shared HTTPSendPolicy refuses before URLSession has read it all. A redirect is
// never followed — `willPerformHTTPRedirection` gets nil, so the 3xx itself comes back and is
// refused with its status and Location (otherwise URLSession re-sends every header, credentials
// included, to whatever origin Location names, `http://` too). A body is counted as it arrives
// (after libcurl's content decoding) and the task cancelled the moment it passes the limit; an
// announced Content-Length over the limit cancels it when the head arrives. A compressed answer
// is refused at its head, as the Foundation-free transports refuse it: libcurl inflates whatever
// arrives into FoundationNetworking's queue faster than a delegate can count it (a 1.7 MB gzip
// body grew the process by 289 MB before the limit was seen). FoundationNetworking ignores the
// delegate's disposition for the head, so every refusal cancels the task itself; what libcurl
// inflates before that cancel lands is slack this transport cannot bound (418 MB from a 1.7 MB
// body on a loaded 2-core machine, about 6 MB on an idle one). An exchange that has not completed
// by its deadline is cancelled as timed out, since FoundationNetworking's resource time-out does
// not fire on Linux (a peer sending a byte every 100 ms held a 2 s request for 30 s); the timer
// runs on a dispatch queue, and a late completion is checked against the deadline as well.

import AuthNetworking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ProtocolSupport

/// Tracks the exchanges of one session by task identifier and finishes each one exactly once.
final class URLSessionExchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Exchange {
        let limits: ResponseLimits
        /// When the whole exchange must have ended.
        let deadline: DispatchTime
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var cancelledBeforeStart = false
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var refusal: TransportError?
    }

    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]

    /// Registers `task` before it can be started or cancelled, and arms its deadline on a
    /// dispatch queue: a timer in Swift's cooperative pool can wait behind busy tasks long after
    /// it is due (a loaded test run let a 2 s request finish at 30 s).
    func prepare(_ task: URLSessionDataTask, limits: ResponseLimits, seconds: Double) {
        let deadline = DispatchTime.now() + seconds
        lock.withLock { exchanges[task.taskIdentifier] = Exchange(limits: limits, deadline: deadline) }
        // Weak references: a finished exchange's task (and its request, credentials included)
        // is not kept alive until the deadline.
        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self, weak task] in
            if let task { self?.expire(task, after: seconds) }
        }
    }

    /// Starts `task`; `continuation` is resumed once, when the task completes (or at once with
    /// ``AuthNetworking/TransportError/Kind/cancelled`` if it was cancelled before it started).
    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let failure: TransportError? = lock.withLock {
            guard var exchange = exchanges[task.taskIdentifier], !exchange.cancelledBeforeStart else {
                exchanges[task.taskIdentifier] = nil
                return TransportError(.cancelled)
            }
            if let expired = exchange.refusal {   // the deadline passed before the task started
                exchanges[task.taskIdentifier] = nil
                return expired
            }
            exchange.continuation = continuation
            exchanges[task.taskIdentifier] = exchange
            return nil
        }
        if let failure { return continuation.resume(throwing: failure) }
        task.resume()
    }

    /// Ends `task` as timed out unless it has already completed: its overall deadline passed.
    func expire(_ task: URLSessionDataTask, after seconds: Double) {
        let running = lock.withLock {
            guard var exchange = exchanges[task.taskIdentifier] else { return false }
            if exchange.refusal == nil {
                exchange.refusal = TransportError(.timedOut, underlying: "no complete answer within \(seconds) s")
                exchange.body = []
            }
            exchanges[task.taskIdentifier] = exchange
            return exchange.continuation != nil   // not started yet: `start` finds the refusal
        }
        if running { task.cancel() }
    }

    /// Cancels `task` (the caller's Swift task was cancelled), whether or not it has started.
    func cancel(_ task: URLSessionDataTask) {
        let started = lock.withLock {
            guard exchanges[task.taskIdentifier]?.continuation == nil else { return true }
            exchanges[task.taskIdentifier]?.cancelledBeforeStart = true
            return false
        }
        if started { task.cancel() }
    }

    /// docs/design.md §1: a 3xx is an error, never followed. Declining here hands the 3xx back.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// Refuses a 3xx, a content coding or an announced body over the limit when the head
    /// arrives. FoundationNetworking on Linux ignores the disposition handed to
    /// `completionHandler`, so a refused task is also cancelled here, or libcurl would go on
    /// reading (and inflating) the body.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        let refusal: TransportError? = lock.withLock {
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return nil }
            exchange.response = http
            if let http, exchange.refusal == nil {
                exchange.refusal = Self.refusal(http, limits: exchange.limits)
            }
            exchanges[dataTask.taskIdentifier] = exchange
            return exchange.refusal
        }
        completionHandler(refusal == nil ? .allow : .cancel)
        if refusal != nil { dataTask.cancel() }
    }

    /// Counts the body as it arrives and cancels the task once it is over the limit (or already
    /// refused: the cancel is idempotent, and data still queued must not be kept).
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over: Bool = lock.withLock {
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return false }
            guard exchange.refusal == nil else { return true }
            do throws(TransportError) {
                try HTTPSendPolicy.checkReceived(exchange.body.count + data.count, limits: exchange.limits)
                exchange.body.append(contentsOf: data)
            } catch {
                exchange.refusal = error
                exchange.body = []
            }
            exchanges[dataTask.taskIdentifier] = exchange
            return exchange.refusal != nil
        }
        if over { dataTask.cancel() }
    }

    /// Resumes the exchange's continuation with the answer or the typed failure.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = lock.withLock({ exchanges.removeValue(forKey: task.taskIdentifier) }),
              let continuation = exchange.continuation else { return }
        if let refusal = exchange.refusal {
            continuation.resume(throwing: refusal)
        } else if DispatchTime.now() > exchange.deadline {
            // Finished late, before the timer could run: still past the deadline.
            continuation.resume(throwing: TransportError(.timedOut, underlying: "no complete answer within the deadline"))
        } else if let error {
            continuation.resume(throwing: URLSessionTransport.transportError(error))
        } else if let http = exchange.response ?? (task.response as? HTTPURLResponse) {
            if let refusal = Self.refusal(http, limits: exchange.limits) {
                continuation.resume(throwing: refusal)
                return
            }
            let headers = http.allHeaderFields.compactMap { key, value -> HTTPHeader? in
                guard let name = key as? String else { return nil }
                return HTTPHeader(name, "\(value)")
            }.sorted { $0.name.lowercased() < $1.name.lowercased() }
            continuation.resume(returning: HTTPResponse(status: http.statusCode, headers: headers, body: exchange.body))
        } else {
            continuation.resume(throwing: TransportError(.badResponse, underlying: "not an HTTP response"))
        }
    }

    /// What ``HTTPSendPolicy`` says of a response head: a redirect, a content coding, or a
    /// Content-Length over the limit.
    static func refusal(_ http: HTTPURLResponse, limits: ResponseLimits) -> TransportError? {
        do throws(TransportError) {
            try HTTPSendPolicy.refuseRedirect(status: http.statusCode, location: header("Location", in: http))
            // RFC 9110 §8.4: identity was asked for (Accept-Encoding), so any coding is refused.
            if let coding = header("Content-Encoding", in: http), coding.lowercased() != "identity" {
                throw TransportError(.badResponse, underlying: "the answer is \(coding)-encoded; only identity is accepted")
            }
            if http.expectedContentLength >= 0 { try HTTPSendPolicy.checkAnnouncedLength(http.expectedContentLength, limits: limits) }
            return nil
        } catch {
            return error
        }
    }

    /// The value of header `name`, compared case-insensitively.
    static func header(_ name: String, in http: HTTPURLResponse) -> String? {
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, key.lowercased() == name.lowercased() { return "\(value)" }
        }
        return nil
    }
}
