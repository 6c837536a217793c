import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, ewoq, iface, send } from '../helpers/chain.js'
import { contracts, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * eth_estimateGas gives exactly the answer of geth's gasestimator (eth/gasestimator/gasestimator.go)
 * run naively: every probe an eth_call at the same block. The node may skip EVM runs whose outcome
 * it can prove (src/engine/exec/estimateGas.ts); any change that alters an answer fails here.
 */

const RPC_GAS_CAP = 50_000_000n
const hexq = (n: bigint) => `0x${n.toString(16)}`

interface Req {
  from?: string
  to?: string
  data?: string
  value?: string
  gas?: string
  maxFeePerGas?: string
}

/** geth's search, each probe an eth_call at `latest`; the answer and the number of probes. */
async function naiveEstimate(node: TestNode, req: Req, overrides?: Record<string, unknown>): Promise<{ gas?: bigint; error?: string; probes: number }> {
  let probes = 0
  const ok = async (gas: bigint) => {
    probes++
    const r = await node.rpc('eth_call', [{ ...req, gas: hexq(gas) }, 'latest', ...(overrides === undefined ? [] : [overrides])])
    return r.error === undefined
  }
  const latest = await node.call('eth_getBlockByNumber', ['latest', false])
  let hi = req.gas !== undefined && BigInt(req.gas) >= 21000n ? BigInt(req.gas) : BigInt(latest.gasLimit)
  if (hi > RPC_GAS_CAP) hi = RPC_GAS_CAP
  if (req.maxFeePerGas !== undefined) {
    const balance = BigInt(await node.call('eth_getBalance', [req.from, 'latest'])) - BigInt(req.value ?? '0x0')
    const allowance = balance / BigInt(req.maxFeePerGas)
    if (hi > allowance) hi = allowance
  }
  if ((req.data === undefined || req.data === '0x') && req.to !== undefined && (await node.call('eth_getCode', [req.to, 'latest'])) === '0x' && overrides === undefined) {
    if (await ok(21000n)) return { gas: 21000n, probes }
  }
  probes++
  const top = await node.rpc('eth_call', [{ ...req, gas: hexq(hi) }, 'latest', ...(overrides === undefined ? [] : [overrides])])
  // geth: a run out of gas at the top is "gas required exceeds allowance"; a revert or another failure is its own error.
  if (top.error !== undefined) return { error: top.error.message === 'out of gas' ? `gas required exceeds allowance (${hi})` : top.error.message, probes }
  // The gas the top run used, as geth's estimator reads it from its own run: the call tracer's, of the same call at the same block.
  const traceOpts = { tracer: 'callTracer', ...(overrides === undefined ? {} : { stateOverrides: overrides }) }
  const used = BigInt((await node.call('debug_traceCall', [{ ...req, gas: hexq(hi) }, 'latest', traceOpts])).gasUsed)
  let lo = used - 1n
  const optimistic = ((used + 2300n) * 64n) / 63n
  if (optimistic < hi) {
    if (await ok(optimistic)) hi = optimistic
    else lo = optimistic
  }
  while (lo + 1n < hi) {
    if (((hi - lo) * 1000n) / hi < 15n) break
    let mid = (hi + lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n
    if (await ok(mid)) hi = mid
    else lo = mid
  }
  return { gas: hi, probes }
}

describe('eth_estimateGas answers as geth searches, probe by probe (eth_call at the same block)', () => {
  let node: TestNode
  let token: string
  let vault: string
  let probe: string
  let p256: string
  const holder = Wallet.createRandom().address
  const call = (to: string, name: 'TestToken' | 'Vault' | 'Probe' | 'P256Caller', fn: string, args: unknown[] = []) => ({ from: ewoq.address, to, data: iface(name).encodeFunctionData(fn, args) })

  beforeAll(async () => {
    node = await startTestNode()
    token = (await deploy(node, 'TestToken', [10n ** 24n])).address
    vault = (await deploy(node, 'Vault', [token])).address
    probe = (await deploy(node, 'Probe')).address
    p256 = (await deploy(node, 'P256Caller')).address
    await send(node, { to: token, data: iface('TestToken').encodeFunctionData('approve', [vault, 10n ** 24n]), gasLimit: 100_000n })
    await send(node, { to: vault, data: iface('Vault').encodeFunctionData('deposit', [1000n]), gasLimit: 200_000n })
  })
  afterAll(() => node.close())

  const cases: [string, () => Req | [Req, Record<string, unknown>]][] = [
    ['a plain transfer to an account without code', () => ({ from: ewoq.address, to: holder, value: '0x1' })],
    ['a plain transfer to a precompile (it runs: more than 21000)', () => ({ from: ewoq.address, to: '0x0000000000000000000000000000000000000002', value: '0x1' })],
    ['a plain transfer to a contract without a receive function (reverts)', () => ({ from: ewoq.address, to: token, value: '0x1' })],
    ['an ERC-20 transfer', () => call(token, 'TestToken', 'transfer', [holder, 5n])],
    ['an ERC-20 transfer to a new holder of a new sender (reverts: no balance)', () => ({ ...call(token, 'TestToken', 'transfer', [holder, 5n]), from: Wallet.createRandom().address })],
    ['an ERC-20 approve', () => call(token, 'TestToken', 'approve', [holder, 7n])],
    [
      'a deployment',
      () => ({
        from: ewoq.address,
        data:
          contracts.contracts.TestToken.bytecode +
          iface('TestToken')
            .encodeDeploy([10n ** 20n])
            .slice(2),
      }),
    ],
    ['a deployment that creates in its constructor (Vault)', () => ({ from: ewoq.address, data: contracts.contracts.Vault.bytecode + iface('Vault').encodeDeploy([token]).slice(2) })],
    ['nonReentrant, storage only', () => call(vault, 'Vault', 'record', [3n])],
    ['nonReentrant, a token transferFrom (a call with all but 1/64 of the gas)', () => call(vault, 'Vault', 'deposit', [10n])],
    ['nonReentrant, a token transfer back', () => call(vault, 'Vault', 'withdraw', [10n])],
    ['nonReentrant, a payment to an account without code', () => ({ ...call(vault, 'Vault', 'pay', [holder]), value: '0x64' })],
    ['nonReentrant, a payment to a contract that refuses it (reverts)', () => ({ ...call(vault, 'Vault', 'pay', [token]), value: '0x64' })],
    ['a check of gasleft()', () => call(vault, 'Vault', 'gated', [100_000n])],
    ['a check of gasleft() above the cap (fails at every limit)', () => call(vault, 'Vault', 'gated', [60_000_000n])],
    ['a caught call that runs out of gas below some limit', () => call(vault, 'Vault', 'attempt', [probe, iface('Probe').encodeFunctionData('burn', [200n])])],
    ['a caught call that always reverts', () => call(vault, 'Vault', 'attempt', [probe, iface('Probe').encodeFunctionData('fail', ['no'])])],
    ['a creation from a contract (CREATE)', () => call(vault, 'Vault', 'make', [42n])],
    ['a loop of hashes', () => call(probe, 'Probe', 'burn', [300n])],
    ['a revert with a reason', () => call(probe, 'Probe', 'fail', ['why'])],
    ['a panic', () => call(probe, 'Probe', 'panic')],
    ['a precompile from a contract (P-256)', () => ({ from: ewoq.address, to: p256, data: '0x' })],
    ['a transient store', () => call(probe, 'Probe', 'transient', [9n])],
    ['the gas given in the request (a limit under what it needs)', () => ({ ...call(probe, 'Probe', 'burn', [300n]), gas: hexq(60_000n) })],
    ['the gas given in the request (enough)', () => ({ ...call(token, 'TestToken', 'transfer', [holder, 5n]), gas: hexq(90_000n) })],
    ['fees given: the sender pays for gas, the limit is what it can pay', () => ({ ...call(token, 'TestToken', 'transfer', [holder, 5n]), maxFeePerGas: hexq(10n ** 9n) })],
    [
      'a state override: code put at an address',
      () => [{ from: ewoq.address, to: holder, data: iface('Probe').encodeFunctionData('burn', [50n]) }, { [holder]: { code: contracts.contracts.Probe.deployedBytecode } }],
    ],
  ]

  it.each(cases)('%s', async (_name, make) => {
    const made = make()
    const [req, overrides] = Array.isArray(made) ? made : [made, undefined]
    const naive = await naiveEstimate(node, req, overrides)
    const answer = await node.rpc('eth_estimateGas', [req, 'latest', ...(overrides === undefined ? [] : [overrides])])
    if (naive.error !== undefined) expect(answer.error?.message).toBe(naive.error)
    else expect(answer.result, JSON.stringify(answer.error)).toBe(hexq(naive.gas!))
    // Without a block a development chain estimates at pending, the next block's context (docs/DEV.md): none of these calls reads it.
    if (overrides === undefined && naive.gas !== undefined) expect(await node.call('eth_estimateGas', [req])).toBe(hexq(naive.gas))
  })
})
