import { describe, expect, it } from 'vitest'
import { blockTarget, hashTarget, onFork, splitLogRange, stateTarget, txTarget } from '../../../../src/namespaces/fork/forkRoutes.js'

const N = 100n
const hash = new Uint8Array(32).fill(7)

describe('blockTarget (a block by number or tag)', () => {
  it('asks the origin for numbers up to N (N itself too) and earliest, verbatim', () => {
    expect(blockTarget(0n, N, 105n)).toEqual({ origin: true })
    expect(blockTarget(99n, N, 105n)).toEqual({ origin: true })
    expect(blockTarget(N, N, 105n)).toEqual({ origin: true })
    expect(blockTarget('earliest', N, 105n)).toEqual({ origin: true })
  })

  it('answers numbers after N locally (a number past the head is the local null)', () => {
    expect(blockTarget(101n, N, 105n)).toEqual({ origin: false })
    expect(blockTarget(1000n, N, 105n)).toEqual({ origin: false })
  })

  it('answers tags locally once the fork built a block, and asks the origin for N by number while the head is N', () => {
    for (const tag of ['latest', 'pending', 'safe', 'finalized'] as const) {
      expect(blockTarget(tag, N, 101n)).toEqual({ origin: false })
      expect(blockTarget(tag, N, N)).toEqual({ origin: true, at: N })
    }
  })
})

describe('hashTarget (a block by hash)', () => {
  it('answers the local blocks after N locally and asks the origin for block N and any unknown hash', () => {
    expect(hashTarget(101n, N)).toEqual({ origin: false })
    expect(hashTarget(N, N)).toEqual({ origin: true })
    expect(hashTarget(undefined, N)).toEqual({ origin: true })
  })
})

describe('stateTarget (state and execution at a block)', () => {
  const unknown = () => undefined
  it('reads state before N from the origin, at N and later locally', () => {
    expect(stateTarget(0n, N, unknown)).toBe('origin')
    expect(stateTarget(99n, N, unknown)).toBe('origin')
    expect(stateTarget(N, N, unknown)).toBe('local')
    expect(stateTarget(150n, N, unknown)).toBe('local')
    expect(stateTarget('earliest', N, unknown)).toBe('origin')
  })

  it('reads every other tag and an absent block locally', () => {
    for (const tag of ['latest', 'pending', 'safe', 'finalized'] as const) expect(stateTarget(tag, N, unknown)).toBe('local')
    expect(stateTarget(undefined, N, unknown)).toBe('local')
  })

  it('reads an EIP-1898 hash locally when the local chain has it, else from the origin once its block is known to be before N', () => {
    expect(stateTarget({ blockHash: hash }, N, () => N)).toBe('local')
    expect(stateTarget({ blockHash: hash, requireCanonical: true }, N, () => 120n)).toBe('local')
    expect(stateTarget({ blockHash: hash }, N, unknown)).toBe('originByHash')
  })
})

describe('txTarget (a transaction by hash)', () => {
  it('answers pooled txs and txs mined after N locally, asks the origin for the rest', () => {
    expect(txTarget('pooled', N)).toEqual({ origin: false })
    expect(txTarget(101n, N)).toEqual({ origin: false })
    expect(txTarget(N, N)).toEqual({ origin: true })
    expect(txTarget(undefined, N)).toEqual({ origin: true })
  })
})

describe('onFork (an origin answer’s block number)', () => {
  it('holds for blocks up to N only; a pending (null) or missing number is not on the fork', () => {
    expect(onFork('0x64', N)).toBe(true)
    expect(onFork('0x0', N)).toBe(true)
    expect(onFork('0x65', N)).toBe(false)
    expect(onFork(null, N)).toBe(false)
    expect(onFork(undefined, N)).toBe(false)
    expect(onFork('latest', N)).toBe(false)
  })
})

describe('splitLogRange', () => {
  it('gives the part up to N to the origin and the part after N to the local chain', () => {
    expect(splitLogRange(10n, 50n, N)).toEqual({ origin: { from: 10n, to: 50n } })
    expect(splitLogRange(10n, N, N)).toEqual({ origin: { from: 10n, to: N } })
    expect(splitLogRange(10n, 120n, N)).toEqual({ origin: { from: 10n, to: N }, local: { from: 101n, to: 120n } })
    expect(splitLogRange(N, N + 1n, N)).toEqual({ origin: { from: N, to: N }, local: { from: N + 1n, to: N + 1n } })
    expect(splitLogRange(101n, 120n, N)).toEqual({ local: { from: 101n, to: 120n } })
  })
})
