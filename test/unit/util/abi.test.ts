import { randomBytes } from 'node:crypto'
import { bytesToHex } from '@ethereumjs/util'
import { AbiCoder, getAddress, id } from 'ethers'
import { describe, expect, it } from 'vitest'
import { type AbiType, abiDecode, abiEncode, eventTopic, selectorOf } from '../../../src/util/abi.js'

/* The codec against ethers' AbiCoder (the tests' dependency), on the shapes the node encodes. */

const coder = AbiCoder.defaultAbiCoder()
const bytes = (n: number) => new Uint8Array(randomBytes(n))
const address = () => bytes(20)
const hex = (text: string) => Uint8Array.from(Buffer.from(text.slice(2), 'hex'))

/** TeleporterMessage and its fee info, as ethers spells them. */
const MESSAGE_TEXT = 'tuple(uint256,address,bytes32,address,uint256,address[],tuple(uint256,address)[],bytes)'
const MESSAGE: AbiType = { tuple: ['uint256', 'address', 'bytes32', 'address', 'uint256', { array: 'address' }, { array: { tuple: ['uint256', 'address'] } }, 'bytes'] }

function randomMessage(): unknown[] {
  const relayers = Array.from({ length: Math.floor(Math.random() * 3) }, address)
  const receipts = Array.from({ length: Math.floor(Math.random() * 3) }, () => [BigInt(Math.floor(Math.random() * 1e9)), address()])
  return [BigInt(bytesToHex(bytes(32))), address(), bytes(32), address(), 200_000n, relayers, receipts, bytes(Math.floor(Math.random() * 100))]
}

/** ethers' form of our values: addresses checksummed, bytes as hex. */
function forEthers(value: unknown): unknown {
  if (value instanceof Uint8Array) return value.length === 20 ? getAddress(bytesToHex(value)) : bytesToHex(value)
  if (Array.isArray(value)) return value.map(forEthers)
  return value
}

describe('abiEncode and abiDecode', () => {
  it('encode as ethers does: static words, bytes, a dynamic tuple with arrays of addresses and tuples, a bool beside it', () => {
    for (let i = 0; i < 20; i++) {
      const message = randomMessage()
      expect(bytesToHex(abiEncode([MESSAGE], [message]))).toBe(coder.encode([MESSAGE_TEXT], [forEthers(message)]))
      const fee = [address(), 5n]
      expect(bytesToHex(abiEncode([MESSAGE, { tuple: ['address', 'uint256'] }], [message, fee]))).toBe(coder.encode([MESSAGE_TEXT, 'tuple(address,uint256)'], forEthers([message, fee]) as unknown[]))
      const payload = bytes(i * 7)
      const warp = [bytes(32), address(), payload]
      expect(bytesToHex(abiEncode([{ tuple: ['bytes32', 'address', 'bytes'] }, 'bool'], [warp, false]))).toBe(coder.encode(['tuple(bytes32,address,bytes)', 'bool'], [forEthers(warp), false]))
      const hashes = [bytes(32), bytes(32)]
      expect(bytesToHex(abiEncode([{ tuple: ['bytes32', 'bytes32'] }, 'bool'], [hashes, true]))).toBe(coder.encode(['tuple(bytes32,bytes32)', 'bool'], [forEthers(hashes), true]))
      expect(bytesToHex(abiEncode(['uint32', 'address'], [7n, hashes[0]!.subarray(0, 20)]))).toBe(coder.encode(['uint32', 'address'], [7n, getAddress(bytesToHex(hashes[0]!.subarray(0, 20)))]))
      const entries = [[1n, address()]]
      expect(bytesToHex(abiEncode([{ array: { tuple: ['uint256', 'address'] } }], [entries]))).toBe(coder.encode(['tuple(uint256,address)[]'], [forEthers(entries)]))
    }
  })

  it('decode what ethers encodes back to the values', () => {
    for (let i = 0; i < 20; i++) {
      const message = randomMessage()
      const fee = [address(), 9n]
      const data = coder.encode([MESSAGE_TEXT, 'tuple(address,uint256)'], forEthers([message, fee]) as unknown[])
      expect(forEthers(abiDecode([MESSAGE, { tuple: ['address', 'uint256'] }], hex(data)))).toEqual(forEthers([message, fee]))
    }
    const payload = bytes(45)
    expect(abiDecode(['bytes'], hex(coder.encode(['bytes'], [payload])))).toEqual([payload])
    expect(abiDecode(['uint32'], hex(coder.encode(['uint32'], [4_000_000_000n])))).toEqual([4_000_000_000n])
  })

  it("refuses as go-ethereum's abi does: short input, a uint32 wider than 32 bits, a length past the end; a length may end in the last word's padding", () => {
    expect(() => abiDecode(['uint32'], new Uint8Array(0))).toThrow('abi: attempting to unmarshal an empty string while arguments are expected')
    expect(() => abiDecode(['uint32'], new Uint8Array(8))).toThrow('abi: cannot marshal in to go type: length insufficient 8 require 32')
    expect(() => abiDecode(['uint32'], new Uint8Array(31))).toThrow('length insufficient 31 require 32')
    const wide = new Uint8Array(32)
    wide[27] = 1
    expect(() => abiDecode(['uint32'], wide)).toThrow('abi: improperly encoded uint32 value')
    const encoded = abiEncode(['bytes'], [bytes(3)])
    expect(abiDecode(['bytes'], encoded.subarray(0, 64 + 3))).toEqual([encoded.subarray(64, 67)])
    expect(() => abiDecode(['bytes'], encoded.subarray(0, 64 + 2))).toThrow('length insufficient 66 require 67')
    const farOffset = encoded.slice()
    farOffset[31] = 0xff
    expect(() => abiDecode(['bytes'], farOffset)).toThrow(/offset or length 255 beyond/)
  })
})

describe('selectorOf and eventTopic', () => {
  it("are keccak's first 4 bytes and keccak of the signature", () => {
    expect(bytesToHex(selectorOf('sendWarpMessage(bytes)'))).toBe(id('sendWarpMessage(bytes)').slice(0, 10))
    expect(bytesToHex(eventTopic('SendWarpMessage(address,bytes32,bytes)'))).toBe(id('SendWarpMessage(address,bytes32,bytes)'))
  })
})
