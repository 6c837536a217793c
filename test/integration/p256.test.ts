import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concat, getBytes, hexlify, keccak256, toBeHex, zeroPadValue } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, iface, nonceOf, send, sign, waitReceipt } from '../helpers/chain.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * The P256VERIFY precompile (ACP-204) coreth runs from Granite: libevm's vm.P256Verify, geth's
 * EIP-7951 code (coreth params/hooks_libevm.go PrecompiledContractsGranite; libevm core/vm/contracts.go
 * p256Verify, params/protocol_params.go P256VerifyGas). 160 bytes hash‖r‖s‖x‖y in, 32-byte 1 out on a
 * valid signature, empty output on anything else, 6900 gas whatever the input.
 */

const P256_VERIFY = '0x0000000000000000000000000000000000000100'
const GAS = 6900n
const N = p256.Point.CURVE().n
const P = p256.Point.CURVE().p
const callerIface = iface('P256Caller')
const word = (n: bigint) => zeroPadValue(toBeHex(n), 32)

/** A signature by a fresh P-256 key over sha256(message), as a WebAuthn or passkey signer makes one. */
function signed(message: string) {
  const secret = p256.utils.randomSecretKey()
  const hash = sha256(new TextEncoder().encode(message))
  const sig = p256.Signature.fromBytes(p256.sign(hash, secret, { prehash: false }))
  const point = p256.Point.fromBytes(p256.getPublicKey(secret, false))
  return { h: hexlify(hash), r: sig.r, s: sig.s, x: point.x, y: point.y }
}

type Parts = ReturnType<typeof signed>
const input = (p: Parts) => concat([p.h, word(p.r), word(p.s), word(p.x), word(p.y)])

/** Intrinsic gas of a transaction with this calldata (Cancun: 4 per zero byte, 16 per other). */
function intrinsic(data: string): bigint {
  let gas = 21_000n
  for (const b of getBytes(data)) gas += b === 0 ? 4n : 16n
  return gas
}

describe('P256VERIFY at 0x100 (Granite, ACP-204)', () => {
  let node: TestNode
  let caller: string
  const good = signed('cchain-node p256')
  const valid = input(good)
  const one = word(1n)
  const callPrecompile = (data: string) => node.call('eth_call', [{ to: P256_VERIFY, data }, 'latest'])

  beforeAll(async () => {
    node = await startTestNode()
    caller = (await deploy(node, 'P256Caller')).address
  })
  afterAll(() => node.close())

  it('answers a valid signature with the 32-byte word 1, a high-s one too (geth checks only 0 < s < n)', async () => {
    expect(await callPrecompile(valid)).toBe(one)
    // noble signs low-s; n - s is the same signature's other half, which EIP-7951 accepts.
    expect(await callPrecompile(input({ ...good, s: N - good.s }))).toBe(one)
  })

  it('answers every failure with empty output, not a revert', async () => {
    const flipped = getBytes(good.h)
    flipped[0]! ^= 1
    const failures: Record<string, string> = {
      'another hash': input({ ...good, h: hexlify(flipped) }),
      "another key's signature": input({ ...signed('other'), h: good.h }),
      'r = 0': input({ ...good, r: 0n }),
      's = 0': input({ ...good, s: 0n }),
      'r = n': input({ ...good, r: N }),
      's = n': input({ ...good, s: N }),
      'r = n + 1': input({ ...good, r: N + 1n }),
      's = 2^256 - 1': input({ ...good, s: 2n ** 256n - 1n }),
      'point off the curve': input({ ...good, y: (good.y + 1n) % P }),
      'point at infinity (0, 0)': input({ ...good, x: 0n, y: 0n }),
      'x = p': input({ ...good, x: P }),
      'no input': '0x',
      '159 bytes': valid.slice(0, -2),
      '161 bytes': valid + '00',
      '192 bytes (valid input, padded)': valid + '00'.repeat(32),
    }
    for (const [what, data] of Object.entries(failures)) expect(await callPrecompile(data), what).toBe('0x')
  })

  it('charges 6900 gas in a block, whatever the input, and all the gas when it has less', async () => {
    const bad = input({ ...good, s: 0n })
    for (const data of [valid, bad, '0x01', '0x']) {
      // Under twice the gas used: Helicon's minimum charge (half the limit) stays below it.
      const { receipt } = await send(node, { to: P256_VERIFY, data, gasLimit: 40_000n })
      expect(receipt.status).toBe('0x1')
      expect(BigInt(receipt.gasUsed)).toBe(intrinsic(data) + GAS)
    }
    // One gas short: geth's ErrOutOfGas, which consumes the whole limit. (With hardhat's identity the send itself answers an error; the transaction is mined all the same.)
    const limit = intrinsic(valid) + GAS - 1n
    const raw = await sign({ to: P256_VERIFY, data: valid, gasLimit: limit, nonce: await nonceOf(node, EWOQ_ADDRESS) })
    await node.rpc('eth_sendRawTransaction', [raw])
    const receipt = await waitReceipt(node, keccak256(raw))
    expect(receipt.status).toBe('0x0')
    expect(BigInt(receipt.gasUsed)).toBe(limit)
  })

  it("eth_estimateGas counts the precompile's gas, within geth's 1.5% search tolerance", async () => {
    for (const data of [valid, '0x01']) {
      const estimate = BigInt(await node.call('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: P256_VERIFY, data }]))
      const exact = intrinsic(data) + GAS
      expect(estimate).toBeGreaterThanOrEqual(exact)
      expect(estimate * 1000n).toBeLessThanOrEqual(exact * 1015n)
    }
  })

  it('a contract sees the answer through STATICCALL, in eth_call and in a block', async () => {
    const verify = async (data: string) => {
      const out = await node.call('eth_call', [{ to: caller, data: callerIface.encodeFunctionData('verify', [data]) }, 'latest'])
      const [success, output] = callerIface.decodeFunctionResult('verify', out)
      return { success, output }
    }
    expect(await verify(valid)).toEqual({ success: true, output: one })
    expect(await verify(input({ ...good, r: 0n }))).toEqual({ success: true, output: '0x' })
    expect(await verify(valid.slice(0, -2))).toEqual({ success: true, output: '0x' })
    const args = [good.h, word(good.r), word(good.s), word(good.x), word(good.y)]
    const check = async (a: string[]) => callerIface.decodeFunctionResult('check', await node.call('eth_call', [{ to: caller, data: callerIface.encodeFunctionData('check', a) }, 'latest']))[0]
    expect(await check(args)).toBe(true)
    expect(await check([good.h, word(good.r), word(good.s), word(good.x), word(good.x)])).toBe(false)

    const { receipt } = await send(node, { to: caller, data: callerIface.encodeFunctionData('record', args), gasLimit: 200_000n })
    expect(receipt.status).toBe('0x1')
    expect(callerIface.decodeFunctionResult('lastValid', await node.call('eth_call', [{ to: caller, data: callerIface.encodeFunctionData('lastValid') }, 'latest']))[0]).toBe(true)
  })

  it('is warm from the start (a precompile): eth_createAccessList leaves it out', async () => {
    const data = callerIface.encodeFunctionData('check', [good.h, word(good.r), word(good.s), word(good.x), word(good.y)])
    const list = await node.call('eth_createAccessList', [{ from: EWOQ_ADDRESS, to: caller, data }, 'latest'])
    expect(list.accessList).toEqual([])
  })

  it("debug traces show the call to 0x100 with the precompile's gas and answer; the 4byte tracer skips it", async () => {
    const args = [good.h, word(good.r), word(good.s), word(good.x), word(good.y)]
    const data = callerIface.encodeFunctionData('record', args)
    const { hash } = await send(node, { to: caller, data, gasLimit: 200_000n })
    const trace = await node.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    expect(trace.calls).toHaveLength(1)
    expect(trace.calls[0]).toMatchObject({ type: 'STATICCALL', from: caller.toLowerCase(), to: P256_VERIFY, input: valid, output: one, gasUsed: toBeHex(GAS) })
    const viaCall = await node.call('debug_traceCall', [{ from: EWOQ_ADDRESS, to: caller, data }, 'latest', { tracer: 'callTracer' }])
    expect(viaCall.calls[0]).toMatchObject({ type: 'STATICCALL', to: P256_VERIFY, output: one, gasUsed: toBeHex(GAS) })
    // geth's 4byteTracer leaves out vm.ActivePrecompiles, which libevm extends with coreth's Granite set.
    const fourByte = await node.call('debug_traceTransaction', [hash, { tracer: '4byteTracer' }])
    expect(fourByte).toEqual({ [`${data.slice(0, 10)}-${getBytes(data).length - 4}`]: 1 })
  })
})
