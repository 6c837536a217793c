import { AbiCoder, Wallet, id, toBeHex, zeroPadValue } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, ewoq, iface, send } from '../helpers/chain.js'
import { EWOQ_ADDRESS, GRANITE, contracts, startTestNode, type TestNode } from '../helpers/testNode.js'

const probeIface = iface('Probe')
const tokenIface = iface('TestToken')
const word = (n: bigint | number) => zeroPadValue(toBeHex(n), 32)
const errorString = (reason: string) => id('Error(string)').slice(0, 10) + AbiCoder.defaultAbiCoder().encode(['string'], [reason]).slice(2)
const panicData = (code: number) => id('Panic(uint256)').slice(0, 10) + word(code).slice(2)

describe('eth_call, eth_estimateGas, eth_createAccessList', () => {
  let node: TestNode
  let probe: string
  let token: string
  let setBlock: { number: string; hash: string }
  const stored = probeIface.encodeFunctionData('stored')
  const stranger = Wallet.createRandom().address

  beforeAll(async () => {
    node = await startTestNode()
    probe = (await deploy(node, 'Probe')).address
    token = (await deploy(node, 'TestToken', [1000n])).address
    const r = (await send(node, { to: probe, data: probeIface.encodeFunctionData('set', [42n]), gasLimit: 100_000n })).receipt
    setBlock = { number: r.blockNumber, hash: r.blockHash }
  })
  afterAll(() => node.close())

  describe('eth_call', () => {
    it('reads at latest (default), by number, by hash and by EIP-1898 object', async () => {
      const call = (ref?: unknown) => node.call('eth_call', ref === undefined ? [{ to: probe, data: stored }] : [{ to: probe, data: stored }, ref])
      expect(await call()).toBe(word(42))
      expect(await call('latest')).toBe(word(42))
      expect(await call('pending')).toBe(word(42))
      expect(await call(setBlock.number)).toBe(word(42))
      expect(await call(setBlock.hash)).toBe(word(42))
      expect(await call({ blockHash: setBlock.hash })).toBe(word(42))
      expect(await call({ blockHash: setBlock.hash, requireCanonical: true })).toBe(word(42))
      const before = '0x' + (BigInt(setBlock.number) - 1n).toString(16)
      expect(await call(before)).toBe(word(0))
      expect(await call({ blockNumber: before })).toBe(word(0))
      // Before the contract existed there is no code: empty return data.
      expect(await call('earliest')).toBe('0x')
    })

    it('accepts "data" as well as "input"; both unequal, or gasPrice with EIP-1559 fees, is -32000 in geth\'s words without an argument prefix', async () => {
      expect(await node.call('eth_call', [{ to: probe, input: stored }, 'latest'])).toBe(word(42))
      expect(await node.call('eth_call', [{ to: probe, input: stored, data: stored }, 'latest'])).toBe(word(42))
      const r = await node.rpc('eth_call', [{ to: probe, input: stored, data: '0x00' }, 'latest'])
      expect(r.error).toEqual({ code: -32000, message: 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data' })
      const fees = await node.rpc('eth_call', [{ to: probe, input: stored, gasPrice: '0x1', maxFeePerGas: '0x2' }, 'latest'])
      expect(fees.error).toEqual({ code: -32000, message: 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified' })
      // The same for the methods that sign or send (geth setDefaults).
      const send = await node.rpc('eth_sendTransaction', [{ from: EWOQ_ADDRESS, to: probe, input: stored, data: '0x00' }])
      expect(send.error).toEqual({ code: -32000, message: 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data' })
    })

    it('sees the block context: chain ID, number, coinbase', async () => {
      const out = await node.call('eth_call', [{ to: probe, data: probeIface.encodeFunctionData('context') }, 'latest'])
      const [chainId, number, , , coinbase, gasLimit] = probeIface.decodeFunctionResult('context', out)
      expect(chainId).toBe(43112n)
      expect(number).toBe(BigInt(await node.call('eth_blockNumber')))
      expect(coinbase).toBe('0x0100000000000000000000000000000000000000')
      expect(gasLimit > 0n).toBe(true)
    })

    it('state overrides: stateDiff, state, code and balance', async () => {
      // Read the slot first: overrides must win over any state the node remembered from this read.
      expect(await node.call('eth_call', [{ to: probe, data: stored }, 'latest'])).toBe(word(42))
      const diff = { [probe]: { stateDiff: { [word(0)]: word(7) } } }
      expect(await node.call('eth_call', [{ to: probe, data: stored }, 'latest', diff])).toBe(word(7))
      const full = { [probe]: { state: { [word(1)]: word(1) } } }
      expect(await node.call('eth_call', [{ to: probe, data: stored }, 'latest', full])).toBe(word(0))
      // Probe's runtime code at an address that has none.
      const code = { [stranger]: { code: contracts.contracts.Probe.deployedBytecode, stateDiff: { [word(0)]: word(9) } } }
      expect(await node.call('eth_call', [{ to: stranger, data: stored }, 'latest', code])).toBe(word(9))
      // The override is not persisted.
      expect(await node.call('eth_call', [{ to: probe, data: stored }, 'latest'])).toBe(word(42))
      expect(await node.call('eth_getCode', [stranger, 'latest'])).toBe('0x')
      // A value transfer from an empty account needs a balance override.
      const poor = Wallet.createRandom().address
      const noFunds = await node.rpc('eth_call', [{ from: poor, to: stranger, value: '0x1' }, 'latest'])
      expect(noFunds.error).toEqual({ code: -32000, message: `err: insufficient funds for gas * price + value: address ${poor} have 0 want 1 (supplied gas 50000000)` })
      expect(await node.call('eth_call', [{ from: poor, to: stranger, value: '0x1' }, 'latest', { [poor]: { balance: '0x1' } }])).toBe('0x')
      const both = await node.rpc('eth_call', [{ to: probe, data: stored }, 'latest', { [probe]: { state: {}, stateDiff: {} } }])
      expect(both.error?.code).toBe(-32602)
    })

    it('revert with a reason: code 3, "execution reverted: <reason>", data = the revert bytes', async () => {
      const r = await node.rpc('eth_call', [{ to: probe, data: probeIface.encodeFunctionData('fail', ['boom']) }, 'latest'])
      expect(r.error).toEqual({ code: 3, message: 'execution reverted: boom', data: errorString('boom') })
    })

    it('revert without data: code 3, "execution reverted", data 0x', async () => {
      const r = await node.rpc('eth_call', [{ to: probe, data: probeIface.encodeFunctionData('failPlain') }, 'latest'])
      expect(r.error).toEqual({ code: 3, message: 'execution reverted', data: '0x' })
    })

    it('custom error: code 3, data = selector and arguments', async () => {
      const data = tokenIface.encodeFunctionData('transfer', [EWOQ_ADDRESS, 5n])
      const r = await node.rpc('eth_call', [{ from: stranger, to: token, data }, 'latest'])
      const expected = tokenIface.encodeErrorResult('InsufficientBalance', [0n, 5n])
      expect(r.error).toEqual({ code: 3, message: 'execution reverted', data: expected })
      expect(tokenIface.parseError(r.error!.data as string)?.name).toBe('InsufficientBalance')
    })

    it('Panic(0x12): code 3 with the panic reason and data', async () => {
      const r = await node.rpc('eth_call', [{ to: probe, data: probeIface.encodeFunctionData('panic') }, 'latest'])
      expect(r.error).toEqual({ code: 3, message: 'execution reverted: division or modulo by zero', data: panicData(0x12) })
    })

    it('out of gas is -32000 with geth wording', async () => {
      const r = await node.rpc('eth_call', [{ to: probe, data: probeIface.encodeFunctionData('burn', [200n]), gas: '0x7530' }, 'latest'])
      expect(r.error?.code).toBe(-32000)
      expect(r.error?.message).toBe('out of gas')
    })

    it('an unknown block is "header not found"', async () => {
      expect((await node.rpc('eth_call', [{ to: probe, data: stored }, '0x3e8'])).error).toEqual({ code: -32000, message: 'header not found' })
    })
  })

  describe('eth_callDetailed', () => {
    it("answers the run whole: gas, the revert's code 3 and reason, geth's text for a halt (Helicon: at least half the gas limit)", async () => {
      const at = (data: string, gas: bigint) => node.call('eth_callDetailed', [{ from: EWOQ_ADDRESS, to: probe, data, gas: `0x${gas.toString(16)}` }, 'latest'])
      // Under twice what the call uses the minimum charge stays below it: the same gas at 30,000 and 40,000.
      const run = await at(stored, 30_000n)
      expect(run).toMatchObject({ errCode: 0, err: '', returnData: word(42) })
      expect(run.gas > 21_000 && run.gas < 30_000).toBe(true)
      expect((await at(stored, 40_000n)).gas).toBe(run.gas)
      expect((await at(stored, 1_000_000n)).gas).toBe(500_000)
      const fail = probeIface.encodeFunctionData('fail', ['boom'])
      expect(await at(fail, 100_000n)).toMatchObject({ errCode: 3, err: 'execution reverted: boom', returnData: errorString('boom') })
      // saevm: any revert is code 3 (coreth gave 0 without revert data).
      expect(await at(probeIface.encodeFunctionData('failPlain'), 100_000n)).toMatchObject({ errCode: 3, err: 'execution reverted', returnData: '0x' })
      expect(await at(stored, 21_100n)).toEqual({ gas: 21_100, errCode: 0, err: 'out of gas', returnData: '0x' })
      expect((await node.rpc('eth_callDetailed', [{ to: probe, data: stored }])).error?.code).toBe(-32602)
    })
  })

  describe('eth_estimateGas', () => {
    it('a plain transfer is exactly 21000', async () => {
      expect(await node.call('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: stranger, value: '0x1' }])).toBe('0x5208')
    })

    it("Probe.burn: the estimate is enough on chain and within geth's 1.5% of the true minimum", async () => {
      const data = probeIface.encodeFunctionData('burn', [30n])
      const estimate = BigInt(await node.call('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: probe, data }]))
      // The true minimum, by bisection with eth_call (which charges gas as a transaction does).
      const fits = async (gas: bigint) => (await node.rpc('eth_call', [{ from: EWOQ_ADDRESS, to: probe, data, gas: '0x' + gas.toString(16) }])).error === undefined
      let lo = 21_000n
      let hi = estimate
      expect(await fits(hi)).toBe(true)
      while (lo + 1n < hi) {
        const mid = (lo + hi) / 2n
        if (await fits(mid)) hi = mid
        else lo = mid
      }
      const minimum = hi
      expect(estimate >= minimum).toBe(true)
      // coreth/geth stop the search once (hi - lo) / hi < 0.015 (estimateGasErrorRatio).
      expect(Number(estimate - minimum) / Number(estimate)).toBeLessThan(0.015)
      const short = await send(node, { to: probe, data, gasLimit: minimum - 1n })
      expect(short.receipt.status).toBe('0x0')
      expect(short.receipt.gasUsed).toBe('0x' + (minimum - 1n).toString(16))
      const ok = await send(node, { to: probe, data, gasLimit: estimate })
      expect(ok.receipt.status).toBe('0x1')
      const exact = await send(node, { to: probe, data, gasLimit: minimum })
      expect(exact.receipt.status).toBe('0x1')
    })

    it('a revert is code 3 with the reason and data, as eth_call', async () => {
      const r = await node.rpc('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: probe, data: probeIface.encodeFunctionData('fail', ['nope']) }])
      expect(r.error).toEqual({ code: 3, message: 'execution reverted: nope', data: errorString('nope') })
      const custom = await node.rpc('eth_estimateGas', [{ from: stranger, to: token, data: tokenIface.encodeFunctionData('transfer', [EWOQ_ADDRESS, 1n]) }])
      expect(custom.error).toEqual({ code: 3, message: 'execution reverted', data: tokenIface.encodeErrorResult('InsufficientBalance', [0n, 1n]) })
    })

    it('gas above the allowance: geth wording', async () => {
      const burn = probeIface.encodeFunctionData('burn', [2000n])
      const capped = await node.rpc('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: probe, data: burn, gas: '0x7530' }])
      expect(capped.error).toEqual({ code: -32000, message: 'gas required exceeds allowance (30000)' })
    })

    it('honours block references and state overrides', async () => {
      const data = probeIface.encodeFunctionData('set', [1n])
      const atLatest = BigInt(await node.call('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: probe, data }, 'latest']))
      // Before Probe existed, the call hits an account without code: intrinsic gas (+ geth's 1.5% slack).
      const intrinsic = 21_000n + [...Buffer.from(data.slice(2), 'hex')].reduce((s, b) => s + (b === 0 ? 4n : 16n), 0n)
      const atGenesis = BigInt(await node.call('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: probe, data }, '0x0']))
      expect(atGenesis >= intrinsic && Number(atGenesis - intrinsic) / Number(atGenesis) < 0.015).toBe(true)
      const withOverride = BigInt(await node.call('eth_estimateGas', [{ from: EWOQ_ADDRESS, to: stranger, data }, 'latest', { [stranger]: { code: contracts.contracts.Probe.deployedBytecode } }]))
      // Writing a fresh slot (0 -> 1) costs more than overwriting 42 -> 1.
      expect(withOverride > atLatest).toBe(true)
    })
  })

  describe('eth_createAccessList', () => {
    it('lists the contract and its slot; the gas it reports is what the tx with that list uses', async () => {
      const data = probeIface.encodeFunctionData('set', [5n])
      const r = await node.call('eth_createAccessList', [{ from: EWOQ_ADDRESS, to: probe, data, gas: '0x186a0' }, 'latest'])
      expect(r.accessList).toEqual([{ address: probe.toLowerCase(), storageKeys: [word(0)] }])
      expect(r.error).toBeUndefined()
      const sent = await send(node, { to: probe, data, gasLimit: 100_000n, type: 1, accessList: r.accessList })
      // Helicon: at least half the 100,000 given, in both.
      expect(sent.receipt.gasUsed).toBe(r.gasUsed)
    })

    it('a plain transfer has an empty list and 21000 gas', async () => {
      expect(await node.call('eth_createAccessList', [{ from: EWOQ_ADDRESS, to: stranger, value: '0x1' }])).toEqual({ accessList: [], gasUsed: '0x5208' })
    })

    it('a reverting call reports the error next to the list', async () => {
      const r = await node.call('eth_createAccessList', [{ from: EWOQ_ADDRESS, to: probe, data: probeIface.encodeFunctionData('fail', ['x']) }])
      expect(r.error).toBe('execution reverted')
      expect(BigInt(r.gasUsed) > 21_000n).toBe(true)
    })
  })

  it('ewoq signs for the pre-funded address', () => {
    expect(ewoq.address).toBe(EWOQ_ADDRESS)
  })
})

describe('eth_callDetailed on a chain kept at Granite (coreth)', () => {
  let node: TestNode
  afterAll(() => node?.close())

  it('a revert without data is code 0; the gas is what the call used, whatever its limit', async () => {
    node = await startTestNode({ chain: GRANITE })
    const probe = (await deploy(node, 'Probe')).address
    const at = (data: string) => node.call('eth_callDetailed', [{ to: probe, data, gas: '0xf4240' }, 'latest'])
    expect(await at(probeIface.encodeFunctionData('failPlain'))).toMatchObject({ errCode: 0, err: 'execution reverted', returnData: '0x' })
    expect(await at(probeIface.encodeFunctionData('fail', ['boom']))).toMatchObject({ errCode: 3, err: 'execution reverted: boom' })
    expect((await at(probeIface.encodeFunctionData('stored'))).gas).toBeLessThan(30_000)
  })
})

describe('eth_estimateGas without development controls (coreth)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ config: { devControls: false } })
  })
  afterAll(() => node.close())

  it("value beyond the balance: geth's insufficient funds (a development chain estimates without them: dev.automine.test.ts)", async () => {
    const poor = Wallet.createRandom().address
    const r = await node.rpc('eth_estimateGas', [{ from: poor, to: Wallet.createRandom().address, value: '0x1', maxFeePerGas: '0x1' }])
    expect(r.error).toEqual({ code: -32000, message: 'insufficient funds for transfer' })
  })
})
