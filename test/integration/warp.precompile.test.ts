import { getAddress, keccak256 } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cb58Decode } from '../../src/avalanche/cb58.js'
import { decodePayload } from '../../src/warp/payload.js'
import { decodeUnsignedMessage, messageID } from '../../src/warp/message.js'
import { send } from '../helpers/chain.js'
import { WARP, forwarderCode, hex, warp } from '../helpers/warp.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * The Warp precompile at 0x0200…0005 as coreth serves it on a local network (Granite): its
 * selectors, ABI, gas and SendWarpMessage log, on the C-Chain and on an extra chain, each with its
 * own blockchain ID. Every test node runs the node's interpreter with ethereumjs as its oracle, so
 * each call here runs on both EVMs and must agree.
 */

/** Deploys forwarderCode(kind, 'return'); its address. */
async function deployForwarder(node: TestNode, kind: 'call' | 'static'): Promise<string> {
  const { receipt } = await send(node, { data: forwarderCode(kind, 'return'), gasLimit: 200_000n })
  return getAddress(receipt.contractAddress)
}

describe('the Warp precompile', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  /** The blockchain ID of the chain under test (the C-Chain, or the extra chain in the extra-chain project). */
  const blockchainID = () => cb58Decode(process.env.CCHAIN_TEST_CHAIN === 'extra' ? node.node.extraChains[0]!.spec.id : node.node.blockchainId)
  const call = (data: string, extra: Record<string, unknown> = {}) => node.rpc('eth_call', [{ from: EWOQ_ADDRESS, to: WARP, data, ...extra }, 'latest'])

  it("getBlockchainID (0x4213cf78) answers the chain's 32-byte blockchain ID, not the EVM chain ID, for 200 gas", async () => {
    const answer = await call('0x4213cf78')
    expect(answer.result).toBe(hex(blockchainID()))
    expect(BigInt(await node.call('eth_chainId', []))).not.toBe(BigInt(answer.result))
    // Limits under twice the gas used: Helicon's minimum charge (half the limit) stays below it.
    const { receipt } = await send(node, { to: WARP, data: '0x4213cf78', gasLimit: 30_000n })
    expect(BigInt(receipt.gasUsed)).toBe(21_000n + 4n * 16n + 200n)
  })

  it('getVerifiedWarpMessage and getVerifiedWarpBlockHash without a predicate: the zero value and valid = false', async () => {
    const m = await call(warp.encodeFunctionData('getVerifiedWarpMessage', [0]))
    const [message, valid] = warp.decodeFunctionResult('getVerifiedWarpMessage', m.result)
    expect(valid).toBe(false)
    expect(message.payload).toBe('0x')
    const b = await call(warp.encodeFunctionData('getVerifiedWarpBlockHash', [3]))
    expect(warp.decodeFunctionResult('getVerifiedWarpBlockHash', b.result)[1]).toBe(false)
  })

  it('refuses an unknown selector and a short input with coreth errors, using all the gas', async () => {
    expect((await call('0x12345678')).error?.message).toMatch(/invalid function selector 0x12345678/)
    expect((await call('0x4213')).error?.message).toMatch(/missing function selector to precompile - input length \(2\)/)
    const { receipt } = await send(node, { to: WARP, data: '0x12345678', gasLimit: 60_000n })
    expect(receipt.status).toBe('0x0')
    expect(BigInt(receipt.gasUsed)).toBe(60_000n)
  })

  it("refuses an index coreth's unpacking refuses (short, wider than uint32, above MaxInt32) and a sendWarpMessage input that is not ABI bytes, using all the gas", async () => {
    const selector = warp.getFunction('getVerifiedWarpMessage')!.selector
    const word = (value: bigint) => value.toString(16).padStart(64, '0')
    const index = 'invalid index to specify warp message: '
    // contract_test.go get_message_index_invalid_uint32: MaxInt64's 8 bytes, unpadded.
    expect((await call(`${selector}7fffffffffffffff`)).error?.message).toContain(`${index}abi: cannot marshal in to go type: length insufficient 8 require 32`)
    expect((await call(selector)).error?.message).toContain(`${index}abi: attempting to unmarshal an empty string while arguments are expected`)
    expect((await call(`${selector}${word(1n << 32n)}`)).error?.message).toContain(`${index}abi: improperly encoded uint32 value`)
    expect((await call(warp.encodeFunctionData('getVerifiedWarpBlockHash', [0x80000000]))).error?.message).toContain(`${index}larger than MaxInt32`)
    expect((await call(`${warp.getFunction('sendWarpMessage')!.selector}${word(0x20n)}`, { gas: '0x30000' })).error?.message).toContain('invalid sendWarpMessage input: abi: ')
    const { receipt } = await send(node, { to: WARP, data: `${selector}${word(1n << 32n)}`, gasLimit: 60_000n })
    expect([receipt.status, BigInt(receipt.gasUsed)]).toEqual(['0x0', 60_000n])
  })

  it('from a contract: the sender is the contract; under STATICCALL sendWarpMessage fails (write protection) and the getters answer', async () => {
    const viaCall = await deployForwarder(node, 'call')
    const viaStatic = await deployForwarder(node, 'static')
    const data = warp.encodeFunctionData('sendWarpMessage', ['0x01'])
    // The forwarder answers (success word, return data).
    const blocked = await call(data, { to: viaStatic })
    expect(BigInt(blocked.result.slice(0, 66))).toBe(0n)
    const id = await call('0x4213cf78', { to: viaStatic })
    expect(BigInt(id.result.slice(0, 66))).toBe(1n)
    expect(`0x${id.result.slice(66)}`).toBe(hex(blockchainID()))
    const { receipt } = await send(node, { to: viaCall, data, gasLimit: 200_000n })
    expect(receipt.status).toBe('0x1')
    const parsed = warp.parseLog(receipt.logs[0])!
    expect(getAddress(parsed.args.sender)).toBe(getAddress(viaCall))
    const msg = decodeUnsignedMessage(Uint8Array.from(Buffer.from((parsed.args.message as string).slice(2), 'hex')))
    expect(decodePayload(msg.payload)).toMatchObject({ kind: 'addressedCall', sourceAddress: Uint8Array.from(Buffer.from(viaCall.slice(2), 'hex')) })
  })

  it('sendWarpMessage logs SendWarpMessage(sender, messageID, unsigned message) and returns the message ID; the message is an AddressedCall from the sender', async () => {
    const payload = '0xdeadbeef'
    const data = warp.encodeFunctionData('sendWarpMessage', [payload])
    const { receipt } = await send(node, { to: WARP, data, gasLimit: 100_000n })
    expect(receipt.status).toBe('0x1')
    expect(receipt.logs).toHaveLength(1)
    const log = receipt.logs[0]
    expect(getAddress(log.address)).toBe(getAddress(WARP))
    const parsed = warp.parseLog(log)!
    expect(parsed.name).toBe('SendWarpMessage')
    expect(getAddress(parsed.args.sender)).toBe(getAddress(EWOQ_ADDRESS))
    const unsigned = Uint8Array.from(Buffer.from((parsed.args.message as string).slice(2), 'hex'))
    expect(parsed.args.messageID).toBe(hex(messageID(unsigned)))
    const msg = decodeUnsignedMessage(unsigned)
    expect(msg.networkID).toBe(12345)
    expect(hex(msg.sourceChainID)).toBe(hex(blockchainID()))
    expect(decodePayload(msg.payload)).toEqual({ kind: 'addressedCall', sourceAddress: Uint8Array.from(Buffer.from(EWOQ_ADDRESS.slice(2), 'hex')), payload: Uint8Array.of(0xde, 0xad, 0xbe, 0xef) })
    // Gas: intrinsic (calldata) + 41,500 + 8 per byte of the ABI input (selector excluded).
    const input = (data.length - 2) / 2 - 4
    const calldata = [...Buffer.from(data.slice(2), 'hex')].reduce((g, b) => g + (b === 0 ? 4 : 16), 0)
    expect(BigInt(receipt.gasUsed)).toBe(21_000n + BigInt(calldata) + 41_500n + 8n * BigInt(input))
    expect(keccak256(new TextEncoder().encode('SendWarpMessage(address,bytes32,bytes)'))).toBe(log.topics[0])
  })
})
