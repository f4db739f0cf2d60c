import CBOR
import Testing
import TestSupport

@Suite struct CBORReaderTests {
    /// Reads `input` through a guarded copy (an unreadable page right after its last byte),
    /// so a read past the end crashes the run instead of passing by luck.
    static func read(_ input: [UInt8], limits: CBORLimits) -> CBORCase.Expected {
        GuardedBuffer(capacity: input.count).withBytes(input[...]) { bytes in
            do throws(CBORError) {
                return .value(try CBORReader(limits: limits).read(bytes))
            } catch {
                return .failure(error)
            }
        }
    }

    @Suite struct WholeInput {
        @Test(arguments: CBORCase.all)
        func givesTheExpectedResult(_ row: CBORCase) {
            #expect(CBORReaderTests.read(row.input, limits: row.limits) == row.expected)
        }
    }

    @Suite struct Prefix {
        /// What follows an item is not looked at: the same value comes back with the exact
        /// byte count, which is how a COSE key is cut out of authenticator data.
        @Test(arguments: CBORCase.accepted)
        func readsOneItemAndCountsItsBytes(_ row: CBORCase) throws {
            guard case .value(let expected) = row.expected else { Issue.record("not an accepted row"); return }
            var limits = row.limits
            limits.maxInputBytes += 3
            let input = row.input + [0xFF, 0x1C, 0x00]
            let result = GuardedBuffer(capacity: input.count).withBytes(input[...]) { bytes in
                Result { () throws(CBORError) in try CBORReader(limits: limits).readPrefix(bytes) }
            }
            let (value, consumed) = try result.get()
            #expect(value == expected)
            #expect(consumed == row.input.count)
        }

        /// An item needs all of its bytes: every proper prefix is refused as cut short,
        /// read right up to an unreadable page.
        @Test(arguments: CBORCase.accepted)
        func refusesEveryProperPrefix(_ row: CBORCase) {
            let buffer = GuardedBuffer(capacity: row.input.count)
            for end in 0..<row.input.count {
                let result = buffer.withBytes(row.input[0..<end]) { bytes in
                    do throws(CBORError) {
                        return CBORCase.Expected.value(try CBORReader(limits: row.limits).readPrefix(bytes).value)
                    } catch {
                        return .failure(error)
                    }
                }
                #expect(result == .failure(.truncated) || result == .failure(.lengthPastEnd), "first \(end) bytes: \(result)")
            }
        }

        @Test func readsFromAnArraySliceAtItsOwnOffsets() throws {
            let authenticatorDataTail: [UInt8] = [0xAA, 0xBB] + [UInt8](hex: "a201020326") + [UInt8](hex: "a0")
            let (key, consumed) = try CBORReader().readPrefix(authenticatorDataTail[2...])
            #expect(key == integerMap([(1, .integer(2)), (3, .integer(-7))]))
            #expect(consumed == 5)
        }
    }

    @Suite struct Maps {
        @Test func looksUpIntegerLabelsAndTextNames() throws {
            let map = try #require(try CBORReader().read([UInt8](hex: "a3 01 02 20 01 6361 6c67 26")).map)
            #expect(map[1] == .integer(2))
            #expect(map[-1] == .integer(1))
            #expect(map["alg"] == .integer(-7))
            #expect(map[3] == nil)
            #expect(map["al"] == nil)
        }

        /// A key spelled with a combining accent is not the precomposed key: lookups compare
        /// bytes, as the duplicate check does.
        @Test func comparesTextKeysAsBytes() throws {
            let map = try #require(try CBORReader().read([UInt8](hex: "a1 62c3a9 01")).map)
            #expect(map["\u{E9}"] == .integer(1))
            #expect(map["e\u{301}"] == nil)
            #expect(CBOR.text("\u{E9}") != CBOR.text("e\u{301}"))
        }
    }
}
