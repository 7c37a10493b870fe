#!/usr/bin/env python3
"""A TLS 1.3 server on 127.0.0.1 that behaves correctly (mode `good`) or breaks one rule of
RFC 8446 at one handshake step, so that a client's refusals can be tested over real TCP.

  hostile_tls_server.py --mode MODE [--port 0] [--cert CHAIN.pem --key KEY.pem] [--write-ca PATH]
                        [--connections N] [--idle-timeout S] [--drip-interval S]
  hostile_tls_server.py --list-modes

Prints `PORT <n>` on standard output once listening; logs one line per connection on standard
error: `hostile-tls-server: conn=<n> mode=<mode> handshake=<complete|incomplete> client=<what>`.
Each mode is a subclass of tls13_server.Tls13Server that overrides the one step it breaks. The
modes "after the handshake" act once the client's Finished and its HTTP request are in, before
the answer; the server goes on as `good` after its misstep unless the mode says otherwise (a
server that cannot go on waits for the client's reaction instead).
"""
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

import argparse  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402

from tls13_server import Credentials, ConnectionDone, Options, Tls13Server  # noqa: E402
from tls13_wire import (  # noqa: E402
    ALERT, APPLICATION_DATA, CERTIFICATE, CERTIFICATE_VERIFY, CHANGE_CIPHER_SPEC, DOWNGRADE_TLS11,
    DOWNGRADE_TLS12, ECDSA_P256_SHA256, ECDSA_P384_SHA384, ECDSA_P521_SHA512, ECDSA_SHA1,
    ENCRYPTED_EXTENSIONS, HANDSHAKE, HELLO_REQUEST, MAX_CIPHERTEXT, MAX_INNER_PLAINTEXT, MAX_PLAINTEXT,
    NEW_SESSION_TICKET, OUR_GROUPS, PREFERRED_SUITES, RSA_PKCS1_SHA256, SERVER_HELLO, SUITES, TLS11,
    TLS12, USER_CANCELED, X25519, KeyShare, alpn_extension, certificate_body, extension,
    handshake_message, key_share_extension, random_bytes, record_header, server_hello_body,
    supported_versions_extension, u8, u16, u24, vec8, vec16,
)

MODES = {"good": Tls13Server}
FLOOD_COUNT = 10_000


def mode(name, description):
    """Registers a subclass as the mode `name`."""
    def register(cls):
        cls.mode, cls.description = name, description
        MODES[name] = cls
        return cls
    return register


@mode("good-hrr", "a correct server that always asks for another key share first (HelloRetryRequest)")
class GoodHelloRetry(Tls13Server):
    force_hello_retry = True


# ---------------------------------------------------------------- ClientHello answered wrongly

@mode("close-after-hello", "closes the TCP connection as soon as the ClientHello is read")
class CloseAfterHello(Tls13Server):
    def after_client_hello(self, hello):
        self.client_last = "client_hello (server closed)"
        raise ConnectionDone


@mode("garbage", "64 random bytes in answer to the ClientHello (the first never a content type 20-24)")
class Garbage(Tls13Server):
    def after_client_hello(self, hello):
        first = random_bytes(1)[0] % 236
        self.write_raw(u8(first if first < 20 else first + 5) + random_bytes(63))
        self.await_client_reaction()


class Downgrade(Tls13Server):
    """§4.1.3: a TLS 1.3 server that negotiates an older version ends its random with the sentinel;
    a client offering TLS 1.3 must refuse it (illegal_parameter)."""
    version, sentinel, wanted_suites = TLS12, DOWNGRADE_TLS12, (0xC02B, 0xC02F)

    def older_suite(self, hello):
        for code in self.wanted_suites:
            if code in hello.cipher_suites:
                return code
        usable = [c for c in hello.cipher_suites
                  if c >> 8 != 0x13 and c not in (0x00FF, 0x5600) and (c & 0x0F0F) != 0x0A0A]  # no SCSV, GREASE
        return usable[0] if usable else self.wanted_suites[0]

    def after_client_hello(self, hello):
        self.hello = hello
        extensions = b""
        if 0xFF01 in hello.extension_types or 0x00FF in hello.cipher_suites:
            extensions = extension(0xFF01, vec8(b""))  # RFC 5746 renegotiation_info, as a real server would
        body = (u16(self.version) + random_bytes(24) + self.sentinel + vec8(hello.session_id)
                + u16(self.older_suite(hello)) + u8(0) + (vec16(extensions) if extensions else b""))
        self.write_record(HANDSHAKE, handshake_message(SERVER_HELLO, body))
        self.await_client_reaction()


@mode("downgrade-tls12", "a TLS 1.2 ServerHello (0x0303, no supported_versions) whose random ends DOWNGRD\\x01")
class DowngradeTls12(Downgrade):
    pass


@mode("downgrade-tls11", "a TLS 1.1 ServerHello (0x0302) whose random ends DOWNGRD\\x00")
class DowngradeTls11(Downgrade):
    version, sentinel, wanted_suites = TLS11, DOWNGRADE_TLS11, (0xC013, 0xC009, 0xC014, 0xC00A, 0x002F, 0x0035)


@mode("hrr-twice", "a second HelloRetryRequest in answer to the second ClientHello (§4.1.4: unexpected_message)")
class HelloRetryTwice(Tls13Server):
    force_hello_retry = True

    def receive_second_client_hello(self, first, group):
        hello = super().receive_second_client_hello(first, group)
        self.hello = hello
        again = self.choose_retry_group(hello, exclude=(group,)) or group
        self.send_hello_retry_request(again)
        self.await_client_reaction()


@mode("hrr-same-group", "a HelloRetryRequest for a group the client already sent a share for (§4.1.4: illegal_parameter)")
class HelloRetrySameGroup(Tls13Server):
    def negotiate(self, hello):
        self.hello = hello
        self.check_client_hello(hello)
        self.suite = self.choose_cipher_suite(hello)
        group = self.choose_key_share_group(hello) or next(iter(hello.key_shares), X25519)
        self.send_hello_retry_request(group)
        self.await_client_reaction()


@mode("hrr-then-other-suite", "HelloRetryRequest names one offered suite, the ServerHello another (§4.1.4: illegal_parameter)")
class HelloRetryOtherSuite(Tls13Server):
    force_hello_retry = True

    def send_hello_retry_request(self, group, cipher_suite=None):
        others = [c for c in PREFERRED_SUITES + (0x1304, 0x1305) if c != self.suite.code]
        other = next((c for c in others if c in self.hello.cipher_suites), others[0])
        super().send_hello_retry_request(group, cipher_suite=other)


# ---------------------------------------------------------------- ServerHello

@mode("second-server-hello", "the ServerHello sent twice (the second unprotected, after the keys changed)")
class SecondServerHello(Tls13Server):
    def after_server_hello(self):
        server_hello = self.transcript.messages[-1]
        self.write_raw(record_header(HANDSHAKE, len(server_hello)) + server_hello)


@mode("wrong-cipher-suite", "ServerHello selects a suite the client did not offer (§4.1.3: illegal_parameter)")
class WrongCipherSuite(Tls13Server):
    def choose_cipher_suite(self, hello):
        super().choose_cipher_suite(hello)  # still refuse a client we share nothing with
        return SUITES[next((c for c in (0x1304, 0x1305, 0x1303, 0x1302, 0x1301) if c not in hello.cipher_suites), 0x1304)]


@mode("wrong-session-id", "ServerHello's legacy_session_id_echo differs from the client's (§4.1.3: illegal_parameter)")
class WrongSessionId(Tls13Server):
    def server_hello(self):
        echo = self.hello.session_id
        wrong = bytes([echo[0] ^ 0xFF]) + echo[1:] if echo else random_bytes(32)
        return server_hello_body(random_bytes(32), wrong, self.suite.code, self.server_hello_extensions())


@mode("bad-supported-version", "ServerHello's supported_versions selects 0x0303 (§4.2.1: illegal_parameter)")
class BadSupportedVersion(Tls13Server):
    def server_hello_extensions(self):
        return [supported_versions_extension(TLS12)] + super().server_hello_extensions()[1:]


@mode("duplicate-extension", "ServerHello carries supported_versions twice (§4.2: illegal_parameter)")
class DuplicateExtension(Tls13Server):
    def server_hello_extensions(self):
        extensions = super().server_hello_extensions()
        return [extensions[0]] + extensions


@mode("bad-key-share", "ServerHello's key share is 31 bytes of X25519, or a P-256/P-384 point off the curve")
class BadKeyShare(Tls13Server):
    def server_hello_extensions(self):
        share = bytearray(self.share.public_bytes())
        if self.group == X25519:
            share = share[:31]
        else:
            share[-1] ^= 0x01  # y changed: (x, y') is not on the curve
        return [supported_versions_extension(), key_share_extension(self.group, bytes(share))]

    def after_server_hello(self):
        self.await_client_reaction()


@mode("missing-key-share", "ServerHello without key_share though no PSK was offered: no key exchange is left (§2, §4.2.8)")
class MissingKeyShare(Tls13Server):
    def server_hello_extensions(self):
        return [supported_versions_extension()]

    def after_server_hello(self):
        self.await_client_reaction()


@mode("unoffered-key-share-group", "ServerHello's key share is for a group the client sent no share for (§4.2.8: illegal_parameter)")
class UnofferedKeyShareGroup(Tls13Server):
    def server_hello_extensions(self):
        group = self.choose_retry_group(self.hello) or next((g for g in OUR_GROUPS if g not in self.hello.key_shares), None)
        share = KeyShare(group).public_bytes() if group else b"\x04" + random_bytes(132)
        return [supported_versions_extension(), key_share_extension(group or 0x0019, share)]

    def after_server_hello(self):
        self.await_client_reaction()


@mode("sh-spans-key-change", "the ServerHello record also holds the first bytes of the next message (§5.1: unexpected_message)")
class ServerHelloSpansKeyChange(Tls13Server):
    def send_server_hello(self):
        self.prepare_key_share()
        message = handshake_message(SERVER_HELLO, self.server_hello())
        self.transcript.add(message)
        self.write_record(HANDSHAKE, message + u8(ENCRYPTED_EXTENSIONS) + u8(0))
        self.send_compatibility_ccs()


# ---------------------------------------------------------------- records

@mode("truncated-record", "after ServerHello, a record header announcing 100 bytes, 50 bytes, then our side closed")
class TruncatedRecord(Tls13Server):
    def send_server_flight(self):
        self.write_raw(record_header(APPLICATION_DATA, 100) + random_bytes(50))
        self.sock.shutdown(socket.SHUT_WR)
        self.await_client_reaction()


@mode("oversized-record", "a protected record whose length is 2^14 + 256 + 1 = 16641 (§5.2: record_overflow)")
class OversizedRecord(Tls13Server):
    def send_server_flight(self):
        self.write_raw(record_header(APPLICATION_DATA, MAX_CIPHERTEXT + 1) + random_bytes(MAX_CIPHERTEXT + 1))
        self.await_client_reaction()


@mode("oversized-plaintext", "after the handshake, a valid NewSessionTicket record whose content is 2^14 + 1 bytes (§5.1: record_overflow)")
class OversizedPlaintext(Tls13Server):
    def after_handshake(self):
        ticket = random_bytes(MAX_PLAINTEXT + 1 - 17)  # §4.6.1: 4 + 4 + 4 + nonce<1> + ticket<2> + extensions<2>
        body = u16(0) + u16(7200) + random_bytes(4) + vec8(b"") + vec16(ticket) + vec16(b"")
        message = handshake_message(NEW_SESSION_TICKET, body)
        assert len(message) == MAX_PLAINTEXT + 1
        self.write_record(HANDSHAKE, message)


@mode("oversized-inner-plaintext", "the encrypted flight in one record, zero-padded to a TLSInnerPlaintext of 2^14 + 2 bytes (§5.4)")
class OversizedInnerPlaintext(Tls13Server):
    flight = None

    def send_handshake_bytes(self, data):
        if self.flight is None:
            return super().send_handshake_bytes(data)
        self.flight += data

    def send_server_flight(self):
        self.flight = b""
        super().send_server_flight()
        flight, self.flight = self.flight, None
        padding = MAX_INNER_PLAINTEXT + 1 - (len(flight) + 1)
        self.write_raw(self.write_protection.seal(HANDSHAKE, flight, padding=padding))


@mode("bad-record-mac", "the EncryptedExtensions record with one bit of its tag flipped (§5.2: bad_record_mac)")
class BadRecordMac(Tls13Server):
    def send_encrypted_extensions(self):
        message = handshake_message(ENCRYPTED_EXTENSIONS, self.encrypted_extensions())
        self.transcript.add(message)
        record = bytearray(self.write_protection.seal(HANDSHAKE, message))
        record[-1] ^= 0x01
        self.write_raw(bytes(record))


@mode("empty-handshake-record", "a protected handshake record with no content before EncryptedExtensions (§5.1)")
class EmptyHandshakeRecord(Tls13Server):
    def after_server_hello(self):
        self.write_record(HANDSHAKE, b"")


@mode("alert-flood", "after ServerHello, 10,000 unprotected warning alerts user_canceled (90), then nothing")
class AlertFlood(Tls13Server):
    def after_server_hello(self):
        batch = (record_header(ALERT, 2) + u8(1) + u8(USER_CANCELED)) * 100
        for _ in range(FLOOD_COUNT // 100):
            self.pause()
            self.write_raw(batch)
        self.await_client_reaction()


@mode("protected-alert-flood", "after the handshake, 10,000 protected warning alerts user_canceled (90)")
class ProtectedAlertFlood(Tls13Server):
    def after_handshake(self):
        for _ in range(FLOOD_COUNT // 100):
            self.pause()
            self.write_raw(b"".join(self.write_protection.seal(ALERT, u8(1) + u8(USER_CANCELED)) for _ in range(100)))


@mode("empty-record-flood", "after the handshake, 10,000 protected application_data records of no content")
class EmptyRecordFlood(Tls13Server):
    def after_handshake(self):
        for _ in range(FLOOD_COUNT // 100):
            self.pause()
            self.write_raw(b"".join(self.write_protection.seal(APPLICATION_DATA, b"") for _ in range(100)))


@mode("key-update-flood", "after the handshake, 10,000 KeyUpdate(update_not_requested), re-keying each time")
class KeyUpdateFlood(Tls13Server):
    def after_handshake(self):
        for number in range(FLOOD_COUNT):
            if number % 100 == 0:
                self.pause()
            self.send_key_update(0)


@mode("slow-drip", "the whole server flight (ServerHello to Finished) one byte every --drip-interval seconds (0.5 s)")
class SlowDrip(Tls13Server):
    def write_raw(self, data):
        if self.server_application_secret is not None:
            return super().write_raw(data)
        for index in range(len(data)):
            if index:  # a client that gives up before the last byte ends the connection here
                self.pause(self.options.drip_interval)
            super().write_raw(data[index:index + 1])


# ---------------------------------------------------------------- change_cipher_spec

@mode("bad-ccs", "the middlebox change_cipher_spec carries 0x02 instead of 0x01 (§5: unexpected_message)")
class BadChangeCipherSpec(Tls13Server):
    def send_compatibility_ccs(self):
        if not self.sent_ccs:
            self.sent_ccs = True
            self.send_ccs(b"\x02")


@mode("encrypted-ccs", "a protected change_cipher_spec record before EncryptedExtensions (§5: unexpected_message)")
class EncryptedChangeCipherSpec(Tls13Server):
    def after_server_hello(self):
        self.write_record(CHANGE_CIPHER_SPEC, b"\x01")


@mode("ccs-after-handshake", "an unprotected change_cipher_spec after the handshake and request (§5: unexpected_message)")
class ChangeCipherSpecAfterHandshake(Tls13Server):
    def after_handshake(self):
        self.send_ccs()


# ---------------------------------------------------------------- the encrypted flight

@mode("unexpected-message", "Certificate before EncryptedExtensions (§4: unexpected_message)")
class CertificateFirst(Tls13Server):
    def send_server_flight(self):
        self.send_certificate()
        self.send_encrypted_extensions()
        self.send_certificate_verify()
        self.send_finished()


@mode("plaintext-encrypted-extensions", "EncryptedExtensions sent unprotected after ServerHello (§5: unexpected_message)")
class PlaintextEncryptedExtensions(Tls13Server):
    def send_encrypted_extensions(self):
        message = handshake_message(ENCRYPTED_EXTENSIONS, self.encrypted_extensions())
        self.transcript.add(message)
        self.write_raw(record_header(HANDSHAKE, len(message)) + message)


@mode("no-alpn-agreement", "EncryptedExtensions selects ALPN h2, which the client did not offer (RFC 7301 §3.2)")
class NoAlpnAgreement(Tls13Server):
    def encrypted_extensions(self):
        return vec16(alpn_extension(b"h2"))


@mode("unsolicited-extension", "EncryptedExtensions carries max_fragment_length the client did not offer (§4.2: unsupported_extension)")
class UnsolicitedExtension(Tls13Server):
    def encrypted_extensions(self):
        unsolicited = extension(1, u8(4)) if 1 not in self.hello.extension_types else extension(28, u16(16385))
        return vec16((alpn_extension(self.alpn) if self.alpn else b"") + unsolicited)


@mode("empty-certificate", "a Certificate message with no certificate (§4.4.2.4: decode_error)")
class EmptyCertificate(Tls13Server):
    def send_certificate(self):
        self.send_handshake(CERTIFICATE, certificate_body([]))


@mode("nonempty-certificate-context", "the server's Certificate has a non-empty certificate_request_context (§4.4.2)")
class NonEmptyCertificateContext(Tls13Server):
    def send_certificate(self):
        self.send_handshake(CERTIFICATE, certificate_body(self.credentials.chain, context=b"\x01\x02"))


@mode("huge-handshake-length", "a Certificate header declaring 0xFFFFFF bytes, then 16 KiB filler records every 0.25 s")
class HugeHandshakeLength(Tls13Server):
    def send_server_flight(self):
        self.send_encrypted_extensions()
        self.write_record(HANDSHAKE, u8(CERTIFICATE) + u24(0xFFFFFF))
        filler = bytes(MAX_PLAINTEXT)
        for _ in range(0xFFFFFF // MAX_PLAINTEXT):
            self.pause(0.25)
            self.write_record(HANDSHAKE, filler)
        self.await_client_reaction()


@mode("skip-certificate-verify", "Certificate followed directly by Finished (§4.4: unexpected_message)")
class SkipCertificateVerify(Tls13Server):
    def send_certificate_verify(self):
        pass


@mode("bad-certificate-verify", "CertificateVerify validly signed over the wrong transcript (without Certificate) (§4.4.3: decrypt_error)")
class BadCertificateVerify(Tls13Server):
    def send_certificate_verify(self):
        wrong = self.transcript.hash(self.suite, without_last=1)
        self.send_handshake(CERTIFICATE_VERIFY, self.certificate_verify(self.scheme, wrong))


@mode("wrong-certificate-verify-scheme", "CertificateVerify by a scheme not offered, or forbidden in TLS 1.3: "
      "rsa_pkcs1_sha256 (RSA key), ecdsa_sha1 or another curve's ECDSA (EC key) (§4.4.3: illegal_parameter)")
class WrongCertificateVerifyScheme(Tls13Server):
    def wrong_scheme(self):
        if self.credentials.is_rsa():
            return RSA_PKCS1_SHA256  # §4.4.3: RSA signatures MUST use RSASSA-PSS in TLS 1.3
        candidates = [ECDSA_SHA1] + [s for s in (ECDSA_P521_SHA512, ECDSA_P384_SHA384, ECDSA_P256_SHA256)
                                     if s != self.scheme]
        return next((s for s in candidates if s not in self.hello.signature_algorithms), ECDSA_SHA1)

    def send_certificate_verify(self):
        self.send_handshake(CERTIFICATE_VERIFY, self.certificate_verify(self.wrong_scheme(), self.transcript.hash(self.suite)))


@mode("application-data-before-finished", "an application_data record under the handshake key before Finished (§5: unexpected_message)")
class ApplicationDataBeforeFinished(Tls13Server):
    def send_finished(self):
        self.write_record(APPLICATION_DATA, b"application data too early")
        super().send_finished()


@mode("bad-finished", "server Finished verify_data with one bit flipped (§4.4.4: decrypt_error)")
class BadFinished(Tls13Server):
    def server_verify_data(self):
        data = bytearray(super().server_verify_data())
        data[0] ^= 0x01
        return bytes(data)


# ---------------------------------------------------------------- after the handshake

@mode("renegotiation-style-hello", "after the handshake, a TLS 1.2 HelloRequest (type 0) under the application key (unexpected_message)")
class RenegotiationStyleHello(Tls13Server):
    def after_handshake(self):
        self.write_record(HANDSHAKE, handshake_message(HELLO_REQUEST, b""))


# ---------------------------------------------------------------- the command line

def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=sorted(MODES), metavar="MODE", help="how to behave (see --list-modes)")
    parser.add_argument("--list-modes", action="store_true", help="print each mode and what it does, then exit")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--cert", help="PEM chain, leaf first")
    parser.add_argument("--key", help="PEM private key of the leaf (ECDSA P-256/P-384 or RSA)")
    parser.add_argument("--write-ca", metavar="PATH", help="write the generated self-signed certificate here")
    parser.add_argument("--connections", type=int, default=0, help="serve this many connections, then exit (0: no limit)")
    parser.add_argument("--idle-timeout", type=float, default=20.0, help="seconds to wait for the client (20)")
    parser.add_argument("--drip-interval", type=float, default=0.5, help="seconds between bytes in slow-drip (0.5)")
    parser.add_argument("--log-client-alerts", action="store_true", help="accepted for clarity: the log line is always written")
    args = parser.parse_args(argv)
    if not args.list_modes and not args.mode:
        parser.error("--mode is required")
    if bool(args.cert) != bool(args.key):
        parser.error("--cert and --key go together")
    if args.cert and args.write_ca:
        parser.error("--write-ca writes the generated certificate; with --cert the CA is yours already")
    return args


def list_modes():
    for name in sorted(MODES):
        print(f"{name}\t{MODES[name].description}")


def make_logger():
    lock = threading.Lock()

    def log(line):
        with lock:
            print(line, file=sys.stderr, flush=True)
    return log


def serve(listener, args, credentials, options):
    """Accepts up to --connections connections, each served on a thread of its own."""
    threads, accepted = [], 0
    while args.connections == 0 or accepted < args.connections:
        connection, _ = listener.accept()
        accepted += 1
        server = MODES[args.mode](connection, credentials, options, accepted)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        threads.append(thread)
    listener.close()
    for thread in threads:
        thread.join()


def main(argv):
    args = parse_arguments(argv)
    if args.list_modes:
        list_modes()
        return 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        credentials = Credentials.load(args.cert, args.key) if args.cert else Credentials.generate()
        if args.write_ca:
            with open(args.write_ca, "wb") as handle:
                handle.write(credentials.leaf_pem())
        listener = socket.create_server(("127.0.0.1", args.port))
    except (OSError, ValueError) as error:
        print(f"hostile-tls-server: error: {error}", file=sys.stderr)
        return 2
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    options = Options(idle_timeout=args.idle_timeout, drip_interval=args.drip_interval, log=make_logger())
    try:
        serve(listener, args, credentials, options)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
