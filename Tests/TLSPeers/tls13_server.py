"""A TLS 1.3 server that behaves correctly (RFC 8446), one overridable method per handshake step.

The hostile modes (hostile_tls_server.py) subclass Tls13Server and change exactly one step.
"""
import datetime
import hmac
import ipaddress
import select
import socket
import traceback

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tls13_wire import (
    ALERT, APPLICATION_DATA, CERTIFICATE, CERTIFICATE_VERIFY, CHANGE_CIPHER_SPEC, CLIENT_HELLO,
    CLOSE_NOTIFY, CONTENT_NAMES, DECODE_ERROR, DECRYPT_ERROR, ECDSA_P256_SHA256, ECDSA_P384_SHA384,
    ECDSA_P521_SHA512, ENCRYPTED_EXTENSIONS, FINISHED, HANDSHAKE, HANDSHAKE_FAILURE,
    HANDSHAKE_NAMES, HRR_RANDOM, ILLEGAL_PARAMETER, INTERNAL_ERROR, KEY_UPDATE, MAX_CIPHERTEXT,
    MAX_PLAINTEXT, OUR_GROUPS, PREFERRED_SUITES, PROTOCOL_VERSION, RECORD_OVERFLOW,
    RSA_PSS_RSAE_SHA256, RSA_PSS_RSAE_SHA384, RSA_PSS_RSAE_SHA512, SERVER_HELLO, SUITES, TLS13,
    UNEXPECTED_MESSAGE, KeySchedule, KeyShare, RecordProtection, TlsError, Transcript, alert_text,
    alpn_extension, certificate_body, certificate_verify_content, finished_verify_data,
    handshake_message, hrr_key_share_extension, key_share_extension, parse_client_hello,
    random_bytes, record_header, server_hello_body, supported_versions_extension, u16, u8, vec16,
)

HTTP_RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
MAX_HANDSHAKE_MESSAGE = 65536  # nothing a client sends us comes near; larger is absurd (refused)
MAX_HTTP_REQUEST = 65536

SCHEME_HASHES = {0x0201: hashes.SHA1, 0x0203: hashes.SHA1, 0x0401: hashes.SHA256, 0x0403: hashes.SHA256,
                 0x0501: hashes.SHA384, 0x0503: hashes.SHA384, 0x0601: hashes.SHA512, 0x0603: hashes.SHA512,
                 0x0804: hashes.SHA256, 0x0805: hashes.SHA384, 0x0806: hashes.SHA512}


# ---------------------------------------------------------------- the server's certificate and key

class Credentials:
    """The certificate chain (DER, leaf first) and the leaf's private key."""

    def __init__(self, chain, key):
        self.chain = chain
        self.key = key

    @classmethod
    def load(cls, cert_path, key_path):
        with open(cert_path, "rb") as handle:
            certificates = x509.load_pem_x509_certificates(handle.read())
        with open(key_path, "rb") as handle:
            key = serialization.load_pem_private_key(handle.read(), password=None)
        if not isinstance(key, (ec.EllipticCurvePrivateKey, rsa.RSAPrivateKey)):
            raise ValueError("the key must be ECDSA (P-256, P-384) or RSA")
        return cls([c.public_bytes(serialization.Encoding.DER) for c in certificates], key)

    @classmethod
    def generate(cls):
        """A self-signed P-256 certificate for localhost (SAN DNS:localhost, IP:127.0.0.1)."""
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (
            x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(key, hashes.SHA256()))
        return cls([certificate.public_bytes(serialization.Encoding.DER)], key)

    def leaf_pem(self):
        return x509.load_der_x509_certificate(self.chain[0]).public_bytes(serialization.Encoding.PEM)

    def tls13_schemes(self):
        """§4.4.3 with §4.2.3: the schemes this key may sign a TLS 1.3 CertificateVerify with."""
        if isinstance(self.key, rsa.RSAPrivateKey):
            return [RSA_PSS_RSAE_SHA256, RSA_PSS_RSAE_SHA384, RSA_PSS_RSAE_SHA512]
        return {256: [ECDSA_P256_SHA256], 384: [ECDSA_P384_SHA384], 521: [ECDSA_P521_SHA512]}[self.key.curve.key_size]

    def is_rsa(self):
        return isinstance(self.key, rsa.RSAPrivateKey)

    def sign(self, scheme, data):
        """Any scheme of SCHEME_HASHES the key type allows (the hostile modes use forbidden ones too)."""
        digest = SCHEME_HASHES[scheme]()
        if isinstance(self.key, ec.EllipticCurvePrivateKey):
            return self.key.sign(data, ec.ECDSA(digest))
        if scheme >> 8 == 0x08:  # rsa_pss_rsae_*: MGF1 with the same hash, salt as long as the hash
            return self.key.sign(data, padding.PSS(mgf=padding.MGF1(digest), salt_length=digest.digest_size), digest)
        return self.key.sign(data, padding.PKCS1v15(), digest)


# ---------------------------------------------------------------- one connection

class PeerGone(Exception):
    """The client alerted, closed, reset or went silent (client_last says which)."""


class ConnectionDone(Exception):
    """The mode has nothing more to do on this connection."""


class Options:
    def __init__(self, idle_timeout=20.0, drip_interval=0.5, log=print):
        self.idle_timeout = idle_timeout
        self.drip_interval = drip_interval
        self.log = log


class Tls13Server:
    """The correct server (mode `good`); serve() lists the steps in order."""

    mode = "good"
    description = "a correct TLS 1.3 server"
    force_hello_retry = False

    def __init__(self, sock, credentials, options, number=1):
        self.sock = sock
        self.credentials = credentials
        self.options = options
        self.number = number
        self.read_protection = None
        self.write_protection = None
        self.handshake_buffer = b""
        self.transcript = Transcript()
        self.client_last = "nothing"
        self.handshake_complete = False
        self.sent_ccs = False
        self.hello = self.suite = self.group = self.share = self.scheme = self.alpn = None
        self.shared_secret = self.schedule = None
        self.client_handshake_secret = self.server_handshake_secret = None
        self.client_application_secret = self.server_application_secret = None

    # ------------------------------------------------ lifecycle

    def run(self):
        """Serves the connection, survives whatever the client does, logs one line."""
        try:
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sock.settimeout(self.options.idle_timeout)
            self.serve()
        except (PeerGone, ConnectionDone):
            pass
        except TlsError as error:  # the client broke a rule: tell it, as a correct server would
            self.client_last = f"refused by server ({error.reason}; sent {alert_text(error.alert)})"
            self.quietly(lambda: self.send_alert(error.alert))
        except OSError as error:  # our write failed: the client went away, perhaps after an alert
            self.client_last = {ConnectionResetError: "reset", TimeoutError: "timeout (not reading)"}.get(type(error), "closed")
            self.quietly(lambda: self.await_client_reaction(timeout=0.5))
        except Exception as error:  # a bug of ours: say so, keep serving other connections
            self.client_last = f"server bug ({error!r})"
            traceback.print_exc()
        finally:
            self.quietly(self.sock.close)
            state = "complete" if self.handshake_complete else "incomplete"
            self.options.log(f"hostile-tls-server: conn={self.number} mode={self.mode} "
                             f"handshake={state} client={self.client_last}")

    @staticmethod
    def quietly(action):
        try:
            action()
        except (PeerGone, ConnectionDone, TlsError, OSError):
            pass

    def serve(self):
        hello = self.receive_client_hello()
        self.after_client_hello(hello)
        self.negotiate(hello)
        self.send_server_hello()
        self.install_handshake_keys()
        self.after_server_hello()
        self.send_server_flight()
        self.derive_application_secrets()
        self.receive_client_finished()
        self.receive_http_request()
        self.after_handshake()
        self.send_http_response()

    # hooks the hostile modes fill in
    def after_client_hello(self, hello):
        pass

    def after_server_hello(self):
        pass

    def after_handshake(self):
        """Runs once the client's Finished and its HTTP request are in, before our answer."""

    # ------------------------------------------------ writing

    def write_raw(self, data):
        self.sock.sendall(data)

    def write_record(self, content_type, content):
        """§5.1 plaintext before keys, §5.2 protected after."""
        if self.write_protection is None:
            self.write_raw(record_header(content_type, len(content)) + content)
        else:
            self.write_raw(self.write_protection.seal(content_type, content))

    def send_handshake(self, msg_type, body):
        message = handshake_message(msg_type, body)
        self.transcript.add(message)
        self.send_handshake_bytes(message)
        return message

    def send_handshake_bytes(self, data):
        for start in range(0, len(data), MAX_PLAINTEXT):  # §5.1: fragments of at most 2^14 bytes
            self.write_record(HANDSHAKE, data[start:start + MAX_PLAINTEXT])

    def send_alert(self, description, level=2):
        self.write_record(ALERT, u8(level) + u8(description))

    def send_ccs(self, payload=b"\x01"):
        """§5: change_cipher_spec is never protected."""
        self.write_raw(record_header(CHANGE_CIPHER_SPEC, len(payload)) + payload)

    def send_compatibility_ccs(self):
        """§D.4: one dummy change_cipher_spec after our first handshake message, when the client
        sent a non-empty legacy_session_id."""
        if self.hello.session_id and not self.sent_ccs:
            self.sent_ccs = True
            self.send_ccs()

    # ------------------------------------------------ reading

    def receive(self, count):
        data = b""
        while len(data) < count:
            try:
                chunk = self.sock.recv(count - len(data))
            except socket.timeout:
                self.gone("timeout")
            except ConnectionResetError:
                self.gone("reset")
            if not chunk:
                self.gone("closed" if not data else "closed mid-record")
            data += chunk
        return data

    def gone(self, what):
        self.client_last = what
        raise PeerGone(what)

    def read_record(self):
        """§5.1, §5.2: one record as (content type, content, protected)."""
        header = self.receive(5)
        content_type, length = header[0], int.from_bytes(header[3:5], "big")
        protected = self.read_protection is not None and content_type == APPLICATION_DATA
        if not protected and content_type not in (CHANGE_CIPHER_SPEC, ALERT, HANDSHAKE):
            raise TlsError(UNEXPECTED_MESSAGE, f"unprotected record of type {content_type}")
        if length > (MAX_CIPHERTEXT if protected else MAX_PLAINTEXT):
            raise TlsError(RECORD_OVERFLOW, f"record of {length} bytes")
        body = self.receive(length)
        if protected:
            inner_type, content = self.read_protection.open(header, body)
            return inner_type, content, True
        return content_type, body, False

    def client_alert(self, content):
        if len(content) != 2:
            self.gone(f"malformed alert {content.hex()}")
        warning = content[0] == 1 and content[1] not in (CLOSE_NOTIFY, 90)  # §6: these two are warnings
        self.gone(alert_text(content[1]) + (" (warning)" if warning else ""))

    def next_record(self):
        """The next handshake or application_data content; the client's alerts end the
        connection and its middlebox change_cipher_spec is dropped (§5)."""
        while True:
            content_type, content, protected = self.read_record()
            if content_type == ALERT:
                self.client_alert(content)
            if content_type == CHANGE_CIPHER_SPEC:
                if content == b"\x01" and not protected and not self.handshake_complete:
                    continue
                raise TlsError(UNEXPECTED_MESSAGE, "change_cipher_spec")
            if content_type == HANDSHAKE and self.read_protection is not None and not protected:
                raise TlsError(UNEXPECTED_MESSAGE, "unprotected handshake record after ServerHello")
            return content_type, content

    def read_handshake_message(self):
        """§4: one whole handshake message, reassembled across records."""
        while True:
            if len(self.handshake_buffer) >= 4:
                length = int.from_bytes(self.handshake_buffer[1:4], "big")
                if length > MAX_HANDSHAKE_MESSAGE:
                    raise TlsError(DECODE_ERROR, f"handshake message of {length} bytes")
                if len(self.handshake_buffer) >= 4 + length:
                    message = self.handshake_buffer[:4 + length]
                    self.handshake_buffer = self.handshake_buffer[4 + length:]
                    return message
            content_type, content = self.next_record()
            if content_type != HANDSHAKE:
                raise TlsError(UNEXPECTED_MESSAGE, f"{CONTENT_NAMES.get(content_type)} during the handshake")
            if not content:
                raise TlsError(UNEXPECTED_MESSAGE, "zero-length handshake record")  # §5.1
            self.handshake_buffer += content

    def require_record_boundary(self):
        """§5.1: messages before a key change must end on a record boundary."""
        if self.handshake_buffer:
            raise TlsError(UNEXPECTED_MESSAGE, "handshake data spans a key change")

    def await_client_reaction(self, timeout=None):
        """After a move of ours: reads until the client alerts, closes, goes silent or answers
        with a handshake message (it accepted the move), records it and ends the connection."""
        if timeout is not None:
            self.sock.settimeout(timeout)
        while True:
            try:
                content_type, content, _ = self.read_record()
            except TlsError as error:
                self.gone(f"unreadable record ({error})")
            if content_type == ALERT:
                self.client_alert(content)
            if content_type == HANDSHAKE and content:
                self.client_last = f"handshake {content[0]} {HANDSHAKE_NAMES.get(content[0], 'unknown')}"
                raise ConnectionDone
            if content_type == APPLICATION_DATA:
                self.client_last = "application_data"
                raise ConnectionDone

    def pause(self, seconds=0.0):
        """Waits, unless the client speaks first: then its reaction ends the connection."""
        readable, _, _ = select.select([self.sock], [], [], seconds)
        if readable:
            self.await_client_reaction()

    # ------------------------------------------------ ClientHello and negotiation (§4.1)

    def receive_client_hello(self):
        message = self.read_handshake_message()
        if message[0] != CLIENT_HELLO:
            raise TlsError(UNEXPECTED_MESSAGE, f"{HANDSHAKE_NAMES.get(message[0])} instead of ClientHello")
        self.require_record_boundary()
        hello = parse_client_hello(message)
        self.transcript.add(message)
        self.client_last = "client_hello"
        return hello

    def check_client_hello(self, hello):
        if TLS13 not in hello.supported_versions:  # §4.2.1
            raise TlsError(PROTOCOL_VERSION, "the client does not offer TLS 1.3")
        if hello.compression_methods != b"\x00":  # §4.1.2
            raise TlsError(ILLEGAL_PARAMETER, "legacy_compression_methods is not [null]")

    def choose_cipher_suite(self, hello):
        for code in PREFERRED_SUITES:
            if code in hello.cipher_suites:
                return SUITES[code]
        raise TlsError(HANDSHAKE_FAILURE, "no TLS 1.3 cipher suite in common")

    def choose_signature_scheme(self, hello):
        for scheme in self.credentials.tls13_schemes():  # §4.4.3: one the client offered
            if scheme in hello.signature_algorithms:
                return scheme
        raise TlsError(HANDSHAKE_FAILURE, "no signature scheme in common")

    @staticmethod
    def choose_key_share_group(hello):
        return next((group for group in OUR_GROUPS if group in hello.key_shares), None)

    @staticmethod
    def choose_retry_group(hello, exclude=()):
        """§4.1.4: a group the client supports but sent no share for."""
        return next((g for g in OUR_GROUPS if g in hello.supported_groups and g not in hello.key_shares
                     and g not in exclude), None)

    @staticmethod
    def choose_alpn(hello):
        return b"http/1.1" if b"http/1.1" in hello.alpn else None

    def negotiate(self, hello):
        self.hello = hello
        self.check_client_hello(hello)
        self.suite = self.choose_cipher_suite(hello)
        self.scheme = self.choose_signature_scheme(hello)
        self.group = None if self.force_hello_retry else self.choose_key_share_group(hello)
        if self.group is None:
            retry = self.choose_retry_group(hello)
            if retry is None:
                raise TlsError(HANDSHAKE_FAILURE, "no key exchange group in common")
            self.send_hello_retry_request(retry)
            self.hello = self.receive_second_client_hello(hello, retry)
            self.group = retry
        self.alpn = self.choose_alpn(self.hello)

    def send_hello_retry_request(self, group, cipher_suite=None):
        """§4.1.4: the special random, our suite and the group we want a share for; the transcript
        restarts from message_hash(ClientHello1) (§4.4.1)."""
        if len(self.transcript.messages) == 1:
            self.transcript.replace_first_client_hello(self.suite)
        extensions = [supported_versions_extension(), hrr_key_share_extension(group)]
        code = cipher_suite if cipher_suite is not None else self.suite.code
        self.send_handshake(SERVER_HELLO, server_hello_body(HRR_RANDOM, self.hello.session_id, code, extensions))
        self.send_compatibility_ccs()

    def receive_second_client_hello(self, first, group):
        """§4.1.2: ClientHello2 carries one share, for the requested group, and the same offer."""
        hello = self.receive_client_hello()
        if list(hello.key_shares) != [group]:
            raise TlsError(ILLEGAL_PARAMETER, "second ClientHello does not carry just the requested share")
        if hello.session_id != first.session_id or self.suite.code not in hello.cipher_suites:
            raise TlsError(ILLEGAL_PARAMETER, "second ClientHello changed its offer")
        self.check_client_hello(hello)
        return hello

    # ------------------------------------------------ ServerHello and keys (§4.1.3, §7.1)

    def prepare_key_share(self):
        """§4.2.8: our share for the chosen group and the (EC)DHE secret with the client's."""
        self.share = KeyShare(self.group)
        self.shared_secret = self.share.shared_secret(self.hello.key_shares[self.group])

    def send_server_hello(self):
        self.prepare_key_share()
        self.send_handshake(SERVER_HELLO, self.server_hello())
        self.send_compatibility_ccs()

    def server_hello(self):
        return server_hello_body(random_bytes(32), self.hello.session_id, self.suite.code,
                                 self.server_hello_extensions())

    def server_hello_extensions(self):
        return [supported_versions_extension(), key_share_extension(self.group, self.share.public_bytes())]

    def install_handshake_keys(self):
        self.schedule = KeySchedule(self.suite)
        self.client_handshake_secret, self.server_handshake_secret = self.schedule.handshake_traffic_secrets(
            self.shared_secret, self.transcript.hash(self.suite))
        self.read_protection = RecordProtection(self.suite, self.client_handshake_secret)
        self.write_protection = RecordProtection(self.suite, self.server_handshake_secret)

    # ------------------------------------------------ the encrypted flight (§4.3, §4.4)

    def send_server_flight(self):
        self.send_encrypted_extensions()
        self.send_certificate()
        self.send_certificate_verify()
        self.send_finished()

    def encrypted_extensions(self):
        """§4.3.1: only ALPN (RFC 7301), and only when the client offered http/1.1."""
        return vec16(alpn_extension(self.alpn) if self.alpn else b"")

    def send_encrypted_extensions(self):
        self.send_handshake(ENCRYPTED_EXTENSIONS, self.encrypted_extensions())

    def send_certificate(self):
        self.send_handshake(CERTIFICATE, certificate_body(self.credentials.chain))

    def certificate_verify(self, scheme, transcript_hash):
        """§4.4.3: CertificateVerify { SignatureScheme algorithm, opaque signature<0..2^16-1> }."""
        signature = self.credentials.sign(scheme, certificate_verify_content(transcript_hash))
        return u16(scheme) + vec16(signature)

    def send_certificate_verify(self):
        self.send_handshake(CERTIFICATE_VERIFY, self.certificate_verify(self.scheme, self.transcript.hash(self.suite)))

    def server_verify_data(self):
        return finished_verify_data(self.suite, self.server_handshake_secret, self.transcript.hash(self.suite))

    def send_finished(self):
        self.send_handshake(FINISHED, self.server_verify_data())

    def derive_application_secrets(self):
        """§7.1: from Hash(ClientHello..server Finished); we write with ours at once (§4.4.4)."""
        self.client_application_secret, self.server_application_secret = \
            self.schedule.application_traffic_secrets(self.transcript.hash(self.suite))
        self.write_protection = RecordProtection(self.suite, self.server_application_secret)

    def receive_client_finished(self):
        """§4.4.4: the client's Finished over Hash(ClientHello..server Finished), then its
        application key."""
        expected = finished_verify_data(self.suite, self.client_handshake_secret, self.transcript.hash(self.suite))
        message = self.read_handshake_message()
        if message[0] != FINISHED:
            raise TlsError(UNEXPECTED_MESSAGE, f"{HANDSHAKE_NAMES.get(message[0])} instead of Finished")
        if not hmac.compare_digest(message[4:], expected):
            raise TlsError(DECRYPT_ERROR, "wrong client Finished")
        self.require_record_boundary()
        self.transcript.add(message)
        self.read_protection = RecordProtection(self.suite, self.client_application_secret)
        self.handshake_complete = True
        self.client_last = "finished"

    # ------------------------------------------------ after the handshake

    def send_key_update(self, request_update=0):
        """§4.6.3: KeyUpdate under the current key, then the next generation for our writes."""
        self.write_record(HANDSHAKE, handshake_message(KEY_UPDATE, u8(request_update)))
        self.write_protection = self.write_protection.next_generation()

    def handle_post_handshake(self):
        """§4.6: the only message a client may send us after Finished is KeyUpdate."""
        while len(self.handshake_buffer) >= 4:
            length = int.from_bytes(self.handshake_buffer[1:4], "big")
            if len(self.handshake_buffer) < 4 + length:
                return
            message, self.handshake_buffer = self.handshake_buffer[:4 + length], self.handshake_buffer[4 + length:]
            if message[0] != KEY_UPDATE or length != 1 or message[4] > 1:
                raise TlsError(UNEXPECTED_MESSAGE, f"post-handshake {HANDSHAKE_NAMES.get(message[0], message[0])}")
            self.require_record_boundary()
            self.read_protection = self.read_protection.next_generation()
            if message[4] == 1:
                self.send_key_update(0)

    def receive_http_request(self):
        """One HTTP/1.1 request, up to the blank line (a KeyUpdate may come first)."""
        request = b""
        while b"\r\n\r\n" not in request:
            content_type, content = self.next_record()
            if content_type == HANDSHAKE:
                self.handshake_buffer += content
                self.handle_post_handshake()
                continue
            request += content
            if len(request) > MAX_HTTP_REQUEST:
                raise TlsError(INTERNAL_ERROR, "HTTP request over 64 KiB")
        self.client_last = "http request"

    def send_http_response(self):
        """The answer, close_notify, then whatever the client says last."""
        self.write_record(APPLICATION_DATA, HTTP_RESPONSE)
        self.send_alert(CLOSE_NOTIFY, level=1)
        self.await_client_reaction(timeout=2.0)
