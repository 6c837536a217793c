import type { StateManagerInterface } from '@ethereumjs/common'
import { Address, KECCAK256_NULL, bigIntToBytes, bigIntToUnpaddedBytes, bytesToHex, equalsBytes, generateAddress, generateAddress2, setLengthLeft } from '@ethereumjs/util'
import { memorySlice, word20 } from './evmHooks.js'
import { OP, isCallOp } from '../../evm/gethOpcodes.js'
import type { OpStep, Tracer, TxEnd, TxStart } from './types.js'

/** prestateTracer's tracerConfig (geth eth/tracers/native/prestate.go PrestateTracerConfig). */
export interface PrestateTracerConfig {
  diffMode: boolean
  disableCode: boolean
  disableStorage: boolean
  includeEmpty: boolean
}

interface Account {
  balance?: bigint
  code?: Uint8Array
  codeHash?: Uint8Array
  nonce: bigint
  storage?: Map<string, string>
  empty?: boolean
}

const ZERO_WORD = bytesToHex(new Uint8Array(32))

/**
 * geth's prestateTracer: every account and slot the transaction touched as it was before, or with
 * `diffMode` the changed fields as {post, pre}. Accounts are looked up when first touched: sender,
 * recipient and coinbase at the start, then by SLOAD/SSTORE, BALANCE, EXTCODE*, CALLs and CREATEs.
 */
export class PrestateTracer implements Tracer {
  private readonly pre = new Map<string, Account>()
  private readonly post = new Map<string, Account>()
  private readonly created = new Set<string>()
  private readonly deleted = new Set<string>()

  constructor(private readonly cfg: PrestateTracerConfig) {}

  async onTxStart(tx: TxStart): Promise<void> {
    let to = tx.to
    if (to === undefined) {
      const nonce = (await tx.state.getAccount(new Address(tx.from)))?.nonce ?? 0n
      to = generateAddress(tx.from, bigIntToUnpaddedBytes(nonce))
      this.created.add(bytesToHex(to))
    }
    await this.lookupAccount(tx.state, tx.from)
    await this.lookupAccount(tx.state, to)
    await this.lookupAccount(tx.state, tx.coinbase)
  }

  async onOpcode(step: OpStep): Promise<void> {
    const s = step.stack
    const n = s.length
    const op = step.op
    if (n >= 1 && (op === OP.SLOAD || op === OP.SSTORE)) {
      await this.lookupStorage(step.state, step.address, setLengthLeft(bigIntToBytes(s[n - 1]!), 32))
    } else if (n >= 1 && (op === OP.EXTCODECOPY || op === OP.EXTCODEHASH || op === OP.EXTCODESIZE || op === OP.BALANCE || op === OP.SELFDESTRUCT)) {
      await this.lookupAccount(step.state, word20(s[n - 1]!))
      // EIP-6780: a self-destruct deletes only a contract created in the same transaction.
      if (op === OP.SELFDESTRUCT && this.created.has(bytesToHex(step.address))) this.deleted.add(bytesToHex(step.address))
    } else if (n >= 5 && isCallOp(op)) {
      await this.lookupAccount(step.state, word20(s[n - 2]!))
    } else if (op === OP.CREATE) {
      const nonce = (await step.state.getAccount(new Address(step.address)))?.nonce ?? 0n
      await this.created_(step.state, generateAddress(step.address, bigIntToUnpaddedBytes(nonce)))
    } else if (n >= 4 && op === OP.CREATE2) {
      const init = memorySlice(step.memory, s[n - 2]!, s[n - 3]!)
      await this.created_(step.state, generateAddress2(step.address, setLengthLeft(bigIntToBytes(s[n - 4]!), 32), init))
    }
  }

  async onTxEnd(end: TxEnd): Promise<void> {
    if (this.cfg.diffMode) await this.diff(end.state)
    if (this.cfg.includeEmpty) return
    for (const [addr, acc] of this.pre) if (acc.empty === true) this.pre.delete(addr)
  }

  result(): unknown {
    if (this.cfg.diffMode) return { post: stateJSON(this.post), pre: stateJSON(this.pre) }
    return stateJSON(this.pre)
  }

  private async created_(state: StateManagerInterface, address: Uint8Array): Promise<void> {
    await this.lookupAccount(state, address)
    this.created.add(bytesToHex(address))
  }

  private async lookupAccount(state: StateManagerInterface, address: Uint8Array): Promise<void> {
    const key = bytesToHex(address)
    if (this.pre.has(key)) return
    const a = new Address(address)
    const account = await state.getAccount(a)
    const code = await state.getCode(a)
    const acc: Account = { balance: account?.balance ?? 0n, nonce: account?.nonce ?? 0n }
    if (code.length > 0) acc.code = code
    if (account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL)) acc.codeHash = account.codeHash
    if (acc.nonce === 0n && code.length === 0 && acc.balance === 0n) acc.empty = true
    if (this.cfg.disableCode) delete acc.code
    if (!this.cfg.disableStorage) acc.storage = new Map()
    this.pre.set(key, acc)
  }

  private async lookupStorage(state: StateManagerInterface, address: Uint8Array, slot: Uint8Array): Promise<void> {
    if (this.cfg.disableStorage) return
    const acc = this.pre.get(bytesToHex(address))
    const key = bytesToHex(slot)
    if (acc?.storage === undefined || acc.storage.has(key)) return
    acc.storage.set(key, bytesToHex(setLengthLeft(await state.getStorage(new Address(address), slot), 32)))
  }

  /** geth processDiffState: keep only what changed; post holds the new values. */
  private async diff(state: StateManagerInterface): Promise<void> {
    for (const [key, pre] of this.pre) {
      if (this.deleted.has(key)) continue
      const a = new Address(Buffer.from(key.slice(2), 'hex'))
      const now = await state.getAccount(a)
      const post: Account = { nonce: 0n, storage: new Map() }
      let modified = false
      const balance = now?.balance ?? 0n
      if (balance !== pre.balance) {
        modified = true
        post.balance = balance
      }
      const nonce = now?.nonce ?? 0n
      if (nonce !== pre.nonce) {
        modified = true
        post.nonce = nonce
      }
      const codeHash = now?.codeHash ?? KECCAK256_NULL
      if (!equalsBytes(codeHash, pre.codeHash ?? KECCAK256_NULL)) {
        modified = true
        post.codeHash = codeHash
      }
      if (!this.cfg.disableCode) {
        const code = await state.getCode(a)
        if (!equalsBytes(code, pre.code ?? new Uint8Array())) {
          modified = true
          post.code = code
        }
      }
      if (!this.cfg.disableStorage && pre.storage !== undefined) {
        for (const [slot, value] of [...pre.storage]) {
          if (value === ZERO_WORD) pre.storage.delete(slot)
          const current = bytesToHex(setLengthLeft(await state.getStorage(a, Buffer.from(slot.slice(2), 'hex')), 32))
          if (current === value) {
            pre.storage.delete(slot)
          } else {
            modified = true
            if (current !== ZERO_WORD) post.storage!.set(slot, current)
          }
        }
      }
      if (modified) this.post.set(key, post)
      else this.pre.delete(key)
    }
  }
}

/** A state map as geth marshals it: addresses and slots sorted; zero nonce, empty code and storage left out. */
function stateJSON(map: Map<string, Account>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of [...map.keys()].sort()) {
    const acc = map.get(key)!
    const json: Record<string, unknown> = {}
    if (acc.balance !== undefined) json.balance = '0x' + acc.balance.toString(16)
    if (acc.code !== undefined) json.code = bytesToHex(acc.code)
    if (acc.codeHash !== undefined) json.codeHash = bytesToHex(acc.codeHash)
    if (acc.nonce !== 0n) json.nonce = Number(acc.nonce)
    if (acc.storage !== undefined && acc.storage.size > 0) json.storage = Object.fromEntries([...acc.storage].sort(([a], [b]) => (a < b ? -1 : 1)))
    out[key] = json
  }
  return out
}
