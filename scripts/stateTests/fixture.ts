import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Block, createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { RLP } from '@ethereumjs/rlp'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { type TypedTransaction, createTxFromRLP } from '@ethereumjs/tx'
import { Account, Address, type KZG, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { createVM, runTx } from '@ethereumjs/vm'
import type { EvmBlock, EvmLog } from '../../src/evm/types.js'
import { customCrypto, keccak256 } from '../../src/util/crypto.js'

/*
 * ethereum/tests GeneralStateTests (the filled JSON, post-state form): one case per post entry of the
 * fork run here. The expected `hash` is the state root after the transaction and `logs` the keccak of
 * the RLP of its logs; a transaction the fork rejects (`expectException`) leaves the pre-state.
 */

/** The fork whose post entries run: the C-Chain's EVM is Cancun's, and the pinned commit's files are filled for it. */
export const FORK = 'Cancun'

export interface PreAccount {
  balance: string
  nonce: string
  code: string
  storage: Record<string, string>
}

interface PostEntry {
  hash: string
  logs: string
  indexes: { data: number; gas: number; value: number }
  txbytes: string
  expectException?: string
}

export interface StateTestFixture {
  env: Record<string, string>
  pre: Record<string, PreAccount>
  post: Record<string, PostEntry[]>
}

/** One post entry of one test: what to run and what it must leave. */
export interface StateTestCase {
  /** The fixture file, relative to upstream's GeneralStateTests/. */
  file: string
  /** The test's name inside the file. */
  test: string
  /** `test` with the entry's indexes, as the list of known failures names a case. */
  name: string
  fixture: StateTestFixture
  entry: PostEntry
}

/** What a run left: the state root and the hash of the logs, both 0x-hex. */
export interface StateTestOutcome {
  root: string
  logsHash: string
  /** Why the transaction was rejected (expected for an entry with `expectException`). */
  rejected?: string
}

/**
 * The cases of one file (`path`, under upstream's GeneralStateTests/, without `.json`): each test's
 * post entries for FORK. A test with none is filled for another fork only (some Pyspecs files keep a
 * variant per fork): skipped, and counted in `skipped`.
 */
export function loadCases(root: string, path: string): { cases: StateTestCase[]; skipped: number } {
  const file = `${path}.json`
  const tests = JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, StateTestFixture>
  let skipped = 0
  const cases = Object.entries(tests).flatMap(([test, fixture]) => {
    const entries = fixture.post[FORK] ?? []
    if (entries.length === 0) skipped++
    return entries.map((entry) => {
      const { data, gas, value } = entry.indexes
      return { file, test, name: `${test}[d${data}g${gas}v${value}]`, fixture, entry }
    })
  })
  return { cases, skipped }
}

/**
 * ethereumjs builds no blob transaction without a KZG library, though one without its blobs (all a
 * state test's are) never calls it. None is a dependency, so the subset (subset.txt) leaves out the
 * point evaluation precompile, the one user of this stand-in.
 */
const NO_KZG = new Proxy({} as KZG, {
  get: () => () => {
    throw new Error('no KZG library in these tests')
  },
})

/** Plain Mainnet Cancun, as the fixtures are filled (not the Avalanche chain's Common), with `eips` added; the native keccak and ecrecover. */
export function cancunCommon(eips: number[] = []): Common {
  return new Common({ chain: Mainnet, hardfork: Hardfork.Cancun, eips, customCrypto: { ...customCrypto, kzg: NO_KZG } })
}

/** The pre-state in a fresh in-memory MerkleStateManager. */
export async function buildPreState(pre: Record<string, PreAccount>, common: Common): Promise<MerkleStateManager> {
  const state = new MerkleStateManager({ common })
  for (const [addressHex, account] of Object.entries(pre)) {
    const address = new Address(hexToBytes(addressHex as `0x${string}`))
    await state.putAccount(address, new Account(BigInt(account.nonce), BigInt(account.balance)))
    const code = hexToBytes(account.code as `0x${string}`)
    if (code.length > 0) await state.putCode(address, code)
    for (const [key, value] of Object.entries(account.storage)) {
      if (BigInt(value) === 0n) continue
      await state.putStorage(address, setLengthLeft(hexToBytes(evenHex(key)), 32), hexToBytes(evenHex(value)))
    }
  }
  return state
}

// The fixtures write quantities as 0x-hex of any length ("0x0a", "0x00"); hexToBytes wants whole bytes.
function evenHex(value: string): `0x${string}` {
  const digits = BigInt(value).toString(16)
  return `0x${digits.length % 2 === 0 ? digits : `0${digits}`}`
}

function word(value: string | undefined): bigint {
  return value === undefined ? 0n : BigInt(value)
}

/** The block of the `env` section, as ethereumjs takes it (a post-merge header: PREVRANDAO is the mix hash). */
export function envBlock(env: Record<string, string>, common: Common): Block {
  return createBlock(
    {
      header: {
        number: word(env.currentNumber),
        timestamp: word(env.currentTimestamp),
        coinbase: hexToBytes(env.currentCoinbase as `0x${string}`),
        gasLimit: word(env.currentGasLimit),
        baseFeePerGas: word(env.currentBaseFee),
        mixHash: setLengthLeft(hexToBytes(evenHex(env.currentRandom ?? '0x0')), 32),
        difficulty: 0n,
        excessBlobGas: word(env.currentExcessBlobGas),
      },
    },
    { common },
  )
}

/** The same block in the interpreter's terms. */
export function evmBlock(block: Block): EvmBlock {
  const header = block.header
  return {
    number: header.number,
    timestamp: header.timestamp,
    coinbase: header.coinbase.bytes,
    gasLimit: header.gasLimit,
    baseFee: header.baseFeePerGas ?? 0n,
    prevRandao: header.mixHash,
    blobBaseFee: header.getBlobGasPrice(),
  }
}

/** keccak(RLP([[address, topics, data], ...])): the post entries' `logs`. */
export function logsHash(logs: readonly EvmLog[]): string {
  return bytesToHex(keccak256(RLP.encode(logs.map((log) => [log.address, log.topics, log.data]))))
}

/**
 * The entry's transaction, decoded from its signed bytes; undefined when they do not decode (a
 * transaction the fork rejects, e.g. a blob transaction with no blobs, which the fixtures mark
 * with `expectException`).
 */
export function decodeTx(entry: PostEntry, common: Common): { tx?: TypedTransaction; error?: string } {
  try {
    return { tx: createTxFromRLP(hexToBytes(entry.txbytes as `0x${string}`), { common }) as TypedTransaction }
  } catch (e) {
    return { error: `decode: ${(e as Error).message}` }
  }
}

/**
 * The BLOCKHASH the fillers (geth's state tests) answer: keccak of the block number's decimal string;
 * ethereumjs's default blockchain has no such blocks.
 */
export function fillerBlockHash(number: bigint): Uint8Array {
  return keccak256(new TextEncoder().encode(number.toString()))
}

/** A blockchain for ethereumjs whose blocks have fillerBlockHash's hashes (BLOCKHASH is all the EVM asks of it). */
function fillerBlockchain(): EVMMockBlockchainInterface {
  const chain: EVMMockBlockchainInterface = {
    getBlock: async (number) => ({ hash: () => fillerBlockHash(BigInt(number)) }),
    putBlock: async () => {},
    shallowCopy: () => chain,
  }
  return chain
}

/** Runs a case on ethereumjs's runTx. */
export async function runOnEthereumjs(c: StateTestCase): Promise<StateTestOutcome> {
  const common = cancunCommon()
  const state = await buildPreState(c.fixture.pre, common)
  const vm = await createVM({ common, stateManager: state, blockchain: fillerBlockchain() })
  const block = envBlock(c.fixture.env, common)
  const { tx, error } = decodeTx(c.entry, common)
  let logs: EvmLog[] = []
  let rejected = error
  if (tx !== undefined) {
    try {
      const result = await runTx(vm, { tx, block })
      logs = (result.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }))
    } catch (e) {
      rejected = (e as Error).message
    }
  }
  return { root: bytesToHex(await state.getStateRoot()), logsHash: logsHash(logs), rejected }
}

/** How a run differs from the entry's expectation; undefined when it matches. */
export function mismatch(c: StateTestCase, outcome: StateTestOutcome): string | undefined {
  const problems: string[] = []
  if (outcome.root !== c.entry.hash) problems.push(`root ${outcome.root}, expected ${c.entry.hash}`)
  if (outcome.logsHash !== c.entry.logs) problems.push(`logs ${outcome.logsHash}, expected ${c.entry.logs}`)
  if (c.entry.expectException === undefined && outcome.rejected !== undefined) problems.push(`rejected: ${outcome.rejected}`)
  if (c.entry.expectException !== undefined && outcome.rejected === undefined) problems.push(`accepted, expected ${c.entry.expectException}`)
  return problems.length === 0 ? undefined : problems.join('; ')
}
