// AES in CTR mode (NIST SP 800-38A §6.5) with the whole 128-bit counter block incremented
// big-endian, one-shot and streaming.

import CryptoCore

extension AES {
    /// AES-CTR with a 128-bit big-endian counter (it wraps from 2¹²⁸ − 1 to 0). It provides
    /// confidentiality only. Encryption and decryption are the same operation.
    public enum UnauthenticatedCTR {
        /// Encrypts (or decrypts) `data` under `key` starting from `counterBlock`.
        public static func encrypt(
            _ data: some Sequence<UInt8>, using key: SymmetricKey, counterBlock: some Sequence<UInt8>
        ) throws(CryptoError) -> [UInt8] {
            var stream = try Stream(key: key, counterBlock: counterBlock)
            return stream.process(data)
        }

        /// Decrypts `data`; identical to ``encrypt(_:using:counterBlock:)``.
        public static func decrypt(
            _ data: some Sequence<UInt8>, using key: SymmetricKey, counterBlock: some Sequence<UInt8>
        ) throws(CryptoError) -> [UInt8] {
            try encrypt(data, using: key, counterBlock: counterBlock)
        }

        /// A keystream that continues across calls, so data may arrive in pieces of any size.
        public struct Stream: Sendable {
            private let cipher: AESBitslicedConstantTime
            private var counter: UInt128
            private var keystream = [UInt8](repeating: 0, count: 128)
            private var keystreamUsed = 128

            /// A stream under `key` starting at the 16-byte `counterBlock`.
            public init(key: SymmetricKey, counterBlock: some Sequence<UInt8>) throws(CryptoError) {
                let block = Array(counterBlock)
                guard block.count == blockByteCount else { throw .incorrectLength }
                cipher = try expand(key)
                counter = block.reduce(UInt128(0)) { ($0 << 8) | UInt128($1) }
            }

            /// XORs the next keystream bytes into `data`.
            public mutating func process(_ data: some Sequence<UInt8>) -> [UInt8] {
                var output = Array(data)
                var position = 0
                // Use what is left of the previous keystream chunk.
                while position < output.count && keystreamUsed < 128 {
                    output[position] ^= keystream[keystreamUsed]
                    position += 1
                    keystreamUsed += 1
                }
                // Whole 128-byte chunks straight into the output, eight blocks per call; long
                // inputs start each chunk from the cached first round (AESCTRFirstRound).
                let cipher = cipher
                var counter = counter
                output.withUnsafeMutableBytes { buffer in
                    guard let base = buffer.baseAddress else { return }
                    let firstRound = buffer.count - position >= AESCTRFirstRound.minimumByteCount ? AESCTRFirstRound(cipher: cipher) : nil
                    var blocks = InlineArray<16, UInt64>(repeating: 0)
                    withUnsafeMutableBytes(of: &blocks) { blocks in
                        guard let blockBase = blocks.baseAddress else { return }
                        while buffer.count - position >= 128 {
                            if let firstRound, AESCTRFirstRound.covers(counter) {  // public: the counter
                                let state = firstRound.firstRounds(counter: counter, scratch: blockBase)
                                counter &+= 8
                                cipher.encryptAfterFirstRound(state, xoringInto: base + position)
                            } else {
                                Self.writeCounterBlocks(&counter, into: blockBase)
                                cipher.encrypt(blockBase, xoringInto: base + position, lanes: AESTwoLanes.self)
                            }
                            position += 128
                        }
                        SecretBytes.wipe(blocks)
                    }
                }
                self.counter = counter
                // A final partial chunk leaves keystream for the next call.
                if position < output.count {
                    refillKeystream()
                    while position < output.count {
                        output[position] ^= keystream[keystreamUsed]
                        position += 1
                        keystreamUsed += 1
                    }
                }
                return output
            }

            /// Eight consecutive big-endian counter blocks; the counter wraps modulo 2¹²⁸.
            @inline(__always)
            private static func writeCounterBlocks(_ counter: inout UInt128, into blocks: UnsafeMutableRawPointer) {
                for block in 0..<8 {
                    let value = counter
                    counter &+= 1
                    blocks.storeBytes(of: UInt64(truncatingIfNeeded: value >> 64).bigEndian, toByteOffset: 16 * block, as: UInt64.self)
                    blocks.storeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian, toByteOffset: 16 * block + 8, as: UInt64.self)
                }
            }

            private mutating func refillKeystream() {
                let cipher = cipher
                var counter = counter
                keystream.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    Self.writeCounterBlocks(&counter, into: base)
                    cipher.encrypt(base, base, lanes: AESTwoLanes.self)
                }
                self.counter = counter
                keystreamUsed = 0
            }
        }
    }
}
