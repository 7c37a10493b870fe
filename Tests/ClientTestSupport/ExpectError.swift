// "This throws that error" said once: the body must throw an error of the expected type whose
// code (or kind) is the expected one. Anything else — no error, another type, another code —
// records an Issue at the caller's line, and the matching error is returned for further checks
// (its HTTP status, its cause). The SDK errors are one generic type (`SDKError<Domain>`, named
// per client: PowerAuthSDKError, MPinError, SaltEdgeClientError, CMClientError), so one
// overload serves them all.
//
// ```swift
// expectError(code: MPinError.Code.invalidInput) { try client.makeUser(identity: "") }
// let error = await expectError(PowerAuthSDKError.self, code: .missingActivation) { try await sdk.sign(…) }
// #expect(error?.httpStatus == nil)
// expectError(code: .malformedInput) { try SaltEdge.Link(parsing: "x") }       // ProtocolError
// expectError(kind: .rolledBack) { try store.read("activation") }              // SecureStoreError
// ```

public import AuthNetworking
public import ProtocolSupport
public import SecureStore
public import Testing

// MARK: - SDK errors (ClientError: SDKError<Domain> and every client's typealias of it)

/// Checks that `body` throws an `E` whose code is `code`; records an Issue otherwise.
/// Returns the error when it matched.
@discardableResult
public func expectError<E: ClientError, R>(_ type: E.Type = E.self, code: ClientErrorCodeOf<E>, _ comment: Comment? = nil,
                                           sourceLocation: SourceLocation = #_sourceLocation,
                                           _ body: () throws -> R) -> E? where E.Code == ClientErrorCodeOf<E> {
    ThrownError.check(ThrownError.run(body), expected: "\(E.self) with code \(code)", comment, sourceLocation) { (error: E) in error.code == code }
}

/// Checks that `body` throws an `E` whose code is `code`; records an Issue otherwise.
/// Returns the error when it matched.
@discardableResult
public func expectError<E: ClientError, R>(_ type: E.Type = E.self, code: ClientErrorCodeOf<E>, _ comment: Comment? = nil,
                                           sourceLocation: SourceLocation = #_sourceLocation,
                                           isolation: isolated (any Actor)? = #isolation,
                                           _ body: () async throws -> R) async -> E? where E.Code == ClientErrorCodeOf<E> {
    ThrownError.check(await ThrownError.run(body), expected: "\(E.self) with code \(code)", comment, sourceLocation) { (error: E) in error.code == code }
}

// MARK: - ProtocolError (the sans-I/O cores)

/// Checks that `body` throws a `ProtocolError` whose code is `code`; records an Issue otherwise.
/// Returns the error when it matched.
@discardableResult
public func expectError<R>(code: ProtocolError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                           _ body: () throws -> R) -> ProtocolError? {
    ThrownError.check(ThrownError.run(body), expected: "ProtocolError with code \(code)", comment, sourceLocation) { (error: ProtocolError) in error.code == code }
}

/// Checks that `body` throws a `ProtocolError` whose code is `code`; records an Issue otherwise.
/// Returns the error when it matched.
@discardableResult
public func expectError<R>(code: ProtocolError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                           isolation: isolated (any Actor)? = #isolation,
                           _ body: () async throws -> R) async -> ProtocolError? {
    ThrownError.check(await ThrownError.run(body), expected: "ProtocolError with code \(code)", comment, sourceLocation) { (error: ProtocolError) in error.code == code }
}

// MARK: - SecureStoreError

/// Checks that `body` throws a `SecureStoreError` of `kind`; records an Issue otherwise.
/// Returns the error when it matched (its errno and path are for the caller to check).
@discardableResult
public func expectError<R>(kind: SecureStoreError.Kind, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                           _ body: () throws -> R) -> SecureStoreError? {
    ThrownError.check(ThrownError.run(body), expected: "SecureStoreError of kind \(kind)", comment, sourceLocation) { (error: SecureStoreError) in error.kind == kind }
}

/// Checks that `body` throws a `SecureStoreError` of `kind`; records an Issue otherwise.
/// Returns the error when it matched (its errno and path are for the caller to check).
@discardableResult
public func expectError<R>(kind: SecureStoreError.Kind, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                           isolation: isolated (any Actor)? = #isolation,
                           _ body: () async throws -> R) async -> SecureStoreError? {
    ThrownError.check(await ThrownError.run(body), expected: "SecureStoreError of kind \(kind)", comment, sourceLocation) { (error: SecureStoreError) in error.kind == kind }
}

// MARK: - The one verdict

/// Runs a body and judges what it threw.
enum ThrownError {
    /// What `body` threw, nil when it returned.
    static func run<R>(_ body: () throws -> R) -> (any Error)? {
        do { _ = try body() } catch { return error }
        return nil
    }

    /// What `body` threw, nil when it returned.
    static func run<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async -> (any Error)? {
        do { _ = try await body() } catch { return error }
        return nil
    }

    /// `thrown` as an `E` when it is one and `matches` it; otherwise records why not at
    /// `sourceLocation` and returns nil.
    static func check<E: Error>(_ thrown: (any Error)?, expected: String, _ comment: Comment?, _ sourceLocation: SourceLocation,
                                matches: (E) -> Bool) -> E? {
        let note = comment.map { " — \($0.rawValue)" } ?? ""
        guard let thrown else {
            Issue.record("Expected \(expected) to be thrown, but nothing was thrown\(note)", sourceLocation: sourceLocation)
            return nil
        }
        guard let error = thrown as? E else {
            Issue.record("Expected \(expected), but \(type(of: thrown)) was thrown: \(thrown)\(note)", sourceLocation: sourceLocation)
            return nil
        }
        guard matches(error) else {
            Issue.record("Expected \(expected), but this was thrown: \(error)\(note)", sourceLocation: sourceLocation)
            return nil
        }
        return error
    }
}
