import { gunzipSync, gzipSync } from 'node:zlib'
import { Account, Address, KECCAK256_NULL, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import type { Engine } from '../engine/engine.js'
import type { DumpedAccount } from '../engine/engineDev.js'
import { InvalidParamsError } from '../engine/base/errors.js'
import { DevError } from './errors.js'

/** An account as anvil_loadState writes it. */
interface LoadedAccount {
  address: Uint8Array
  nonce: bigint
  balance: bigint
  code: Uint8Array
  storage: [Uint8Array, Uint8Array][]
}

const MAX_U64 = (1n << 64n) - 1n
const MAX_U256 = (1n << 256n) - 1n

/**
 * anvil_dumpState and anvil_loadState in anvil's format: gzipped JSON of its SerializableState
 * (anvil: crates/anvil/src/eth/backend/db.rs; Backend::dump_state and load_state_bytes in
 * crates/anvil/src/eth/backend/mem/mod.rs). This node dumps the head's accounts (nonce, balance,
 * code, storage) and the head's block environment, no blocks or transactions; it loads the accounts
 * of a dump, its own or anvil's, and ignores the rest (docs/DEV.md).
 */
export class StateDump {
  constructor(private readonly engine: Engine) {}

  /** anvil_dumpState: the gzipped JSON. */
  async dump(): Promise<Uint8Array> {
    const { dev } = this.engine
    const { accounts, unnamed, head } = await dev.exclusive(async () => ({ ...(await dev.dumpAccounts()), head: this.engine.head.header }))
    if (unnamed > 0)
      throw new DevError(`the state holds ${unnamed} accounts or slots whose address or slot this node did not record (written by a version before anvil_dumpState); they cannot be dumped`)
    const state = {
      block: {
        number: quantity(head.number),
        beneficiary: bytesToHex(head.coinbase),
        timestamp: quantity(head.timestamp),
        gas_limit: Number(head.gasLimit),
        basefee: Number(head.baseFee),
        difficulty: '0x0',
        prevrandao: bytesToHex(head.mixHash),
        blob_excess_gas_and_price: { excess_blob_gas: 0, blob_gasprice: 1 },
        slot_num: 0,
      },
      accounts: Object.fromEntries(accounts.map(record).sort(([a], [b]) => (a < b ? -1 : 1))),
      best_block_number: Number(head.number),
      blocks: [],
      transactions: [],
      historical_states: null,
    }
    return gzipSync(JSON.stringify(state))
  }

  /**
   * anvil_loadState: writes a dump's accounts over the head's state, as anvil does (its Db::load_state):
   * the higher of the two nonces, the dump's balance and code (none if empty), its slots set (other
   * slots stay). Gzipped or plain JSON.
   */
  async load(buf: Uint8Array): Promise<void> {
    const accounts = parseDump(buf)
    const { dev } = this.engine
    await dev.exclusive(() =>
      dev.editHeadState(async (state) => {
        for (const a of accounts) {
          const addr = new Address(a.address)
          const account = (await state.getAccount(addr)) ?? new Account()
          if (a.nonce > account.nonce) account.nonce = a.nonce
          account.balance = a.balance
          await state.putAccount(addr, account)
          if (a.code.length === 0) await state.modifyAccountFields(addr, { codeHash: KECCAK256_NULL })
          else await state.putCode(addr, a.code)
          for (const [slot, value] of a.storage) await state.putStorage(addr, slot, value)
        }
      }),
    )
  }
}

/** One account of the dump, anvil's SerializableAccountRecord. */
function record(a: DumpedAccount): [string, unknown] {
  const storage = a.storage.map(([slot, value]) => [word(slot), word(value)] as const).sort(([x], [y]) => (x < y ? -1 : 1))
  return [bytesToHex(a.address), { nonce: Number(a.nonce), balance: quantity(a.balance), code: bytesToHex(a.code), storage: Object.fromEntries(storage) }]
}

function quantity(n: bigint): string {
  return `0x${n.toString(16)}`
}

function word(bytes: Uint8Array): string {
  return bytesToHex(setLengthLeft(bytes, 32))
}

/** A dump's accounts; anything that is not anvil's format is anvil's error. */
function parseDump(buf: Uint8Array): LoadedAccount[] {
  try {
    const text = Buffer.from(buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf).toString('utf8')
    const state = JSON.parse(text) as { accounts?: unknown }
    if (!isObject(state) || !isObject(state.accounts)) throw new Error('no accounts')
    return Object.entries(state.accounts).map(([address, rec]) => {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address) || !isObject(rec)) throw new Error('bad account')
      const code = rec.code ?? '0x'
      if (typeof code !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(code)) throw new Error('bad code')
      const storage = rec.storage ?? {}
      if (!isObject(storage)) throw new Error('bad storage')
      return {
        address: hexToBytes(address as `0x${string}`),
        nonce: uint(rec.nonce ?? 0, MAX_U64),
        balance: uint(rec.balance ?? 0, MAX_U256),
        code: hexToBytes(code as `0x${string}`),
        storage: Object.entries(storage).map(([slot, value]) => [u256Bytes(slot), u256Bytes(value)]),
      }
    })
  } catch {
    throw new InvalidParamsError('Failed to decode state dump')
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A JSON number, a 0x hex string or a decimal string, as alloy's integers deserialise. */
function uint(v: unknown, max: bigint): bigint {
  const ok = (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'string' && /^(0[xX][0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(v))
  const n = ok ? BigInt(v as string | number) : -1n
  if (n < 0n || n > max) throw new Error('bad number')
  return n
}

function u256Bytes(v: unknown): Uint8Array {
  return setLengthLeft(hexToBytes(`0x${uint(v, MAX_U256).toString(16).padStart(64, '0')}`), 32)
}
