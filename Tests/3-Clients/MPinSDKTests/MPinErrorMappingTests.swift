// What each platform status means at each step (docs/protocols/mpin.md §7.1 item 6 for the MFA platform, §7.3's
// error codes for MIRACL Trust), including the statuses neither recording holds (403, 408), so
// a caller can switch on the code.

import AuthNetworking
import MPinSDK
import MPinPlatform
import ProtocolSupport
import Testing

@Suite struct MPinErrorMappingTests {
    @Test func descriptionNamesTheCauseAndTheBlock() {
        let error = MPinError(.incorrectPIN, "wrong PIN", userBlocked: true, httpStatus: 410,
                              protocolError: ProtocolError(.malformedInput, "the body is cut"))
        #expect(error.description == "incorrectPIN: wrong PIN [HTTP 410] (malformedInput: the body is cut) [user blocked]", "\(error)")
    }

    @Test(arguments: [
        (401, MPinError.Step.authenticate, MPinError.Code.incorrectPIN, false),
        (410, .authenticate, .incorrectPIN, true),
        (410, .timePermit, .revoked, false),
        (400, .signature, .identityNotVerified, false),
        (401, .signature, .identityNotVerified, false),
        (404, .signature, .registrationExpired, false),
        (404, .register, .registrationExpired, false),
        (412, .authenticate, .invalidAccessCode, false),
        (412, .session, .invalidAccessCode, false),
        (408, .authenticate, .requestExpired, false),
        (403, .register, .notAuthorized, false),
        (403, .authenticate, .notAuthorized, false),
        (406, .clientSettings, .server, false),
        (500, .pass1, .server, false),
    ])
    func mfaPlatformStatuses(status: Int, step: MPinError.Step, expected: MPinError.Code, blocked: Bool) {
        let error = MPinError.status(status, step: step, body: Array("x".utf8))
        #expect(error.code == expected && error.userBlocked == blocked && error.httpStatus == status && error.platformCode == nil)
    }

    @Test(arguments: [
        ("UNSUCCESSFUL_AUTHENTICATION", MPinError.Step.authenticate, MPinError.Code.incorrectPIN, false),
        ("REVOKED_MPINID", .authenticate, .incorrectPIN, true),
        ("REVOKED_MPINID", .pass1, .revoked, false),
        ("EXPIRED_MPINID", .signature, .registrationExpired, false),
        ("INVALID_ACTIVATION_TOKEN", .register, .notAuthorized, false),
        ("UNSUCCESSFUL_VERIFICATION", .verification, .notAuthorized, false),
        ("REQUEST_BACKOFF", .verification, .requestExpired, false),
        ("SOMETHING_NEW", .pass2, .server, false),
    ])
    func trustErrorCodes(code: String, step: MPinError.Step, expected: MPinError.Code, blocked: Bool) {
        let error = MPinError.status(403, step: step, body: Array(#"{"error":{"code":"\#(code)","info":"x"}}"#.utf8))
        #expect(error.code == expected && error.userBlocked == blocked && error.platformCode == code)
    }
}
