import { createHash } from 'node:crypto'
import { Common } from '@ethereumjs/common'
import { EVM, EVMError, activeCostPerStateByte, createEIP7708TransferLog } from '@ethereumjs/evm'
import type { Halt } from './gethVmError.js'
import { Account, BIGINT_0, EthereumJSErrorWithoutCode, bytesToUnprefixedHex, createZeroAddress, equalsBytes } from '@ethereumjs/util'

/*
 * Runtime patches of ethereumjs (10.1.3) that cut the EVM's fixed cost per call where it offers no
 * hook (docs/PERFORMANCE.md, "The EVM's cost per call"). Each replaces one method of one class
 * with an equivalent that does less work; each applies only while the method's source is the one
 * it was written against (a SHA-256 of its text), so an upgraded ethereumjs runs unpatched, and
 * test/unit/engine/exec/evmPatches.test.ts fails to say a patch needs looking at again.
 * Runtime patches rather than patch-package: they need no install script (npm 11 runs a
 * dependency's scripts only when allowed, and `npm i -g cchain-node` would never run ours), and a
 * changed ethereumjs skips a patch instead of failing an install.
 */

type Analysis = { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: unknown[] }
type InterpreterProto = { _getValidJumpDestinations(code: Uint8Array): Analysis; _evm: { _opcodeMap: unknown } }
type Interp = {
  _result: Record<string, unknown> & { returnValue?: Uint8Array }
  _env: object
  run(code: unknown, opts: object): Promise<{ runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled: bigint }; exceptionError?: { error: string } }>
}
type InterpreterClass = { prototype: InterpreterProto; new (...args: unknown[]): Interp }

/** What each patch found: 'applied', or why not. */
export const evmPatchStatus: Record<string, string> = {}

// Modules @ethereumjs/evm does not export, loaded by URL: the very instances evm.js imports.
const evmModule = (file: string) => import(new URL(file, import.meta.resolve('@ethereumjs/evm')).href)
const [{ Interpreter }, { OOGResult }, { DELEGATION_7702_FLAG }, { getPrecompileName }] = (await Promise.all(
  ['./interpreter.js', './evm.js', './types.js', './precompiles/index.js'].map(evmModule),
)) as [{ Interpreter: InterpreterClass }, { OOGResult: unknown }, { DELEGATION_7702_FLAG: unknown }, { getPrecompileName: unknown }]

function patch<T extends object>(name: string, proto: T, method: keyof T & string, fingerprint: string, make: (original: never) => unknown): void {
  const original = proto[method] as unknown as (...args: unknown[]) => unknown
  const found = createHash('sha256').update(original.toString()).digest('hex').slice(0, 16)
  if (found !== fingerprint) {
    evmPatchStatus[name] = `skipped: ${method} changed (${found})`
    return
  }
  ;(proto as Record<string, unknown>)[method] = make(original as never)
  evmPatchStatus[name] = 'applied'
}

/** Code bytes analysed per opcode table before its cache starts again (bounds memory: ~20 bytes kept per code byte). */
const ANALYSED_BYTES = 4 << 20

/**
 * The jump-destination analysis (valid JUMPDESTs, PUSH values as bigints, the opcode entry at each
 * instruction) depends only on the code and the EVM's opcode table, yet runs at the start of every
 * frame that jumps. Kept per table (WeakMap: a table dies with its EVM; its entries are the ones
 * the interpreter would look up) and per code, found by length and end bytes (Solidity ends code
 * with its metadata hash) and confirmed by comparing the bytes. Nothing writes to an analysis.
 */
patch('jump analysis cache', Interpreter.prototype, '_getValidJumpDestinations', 'a30ec99e04e322ec', (original: (code: Uint8Array) => Analysis) => {
  const tables = new WeakMap<object, { byKey: Map<string, { code: Uint8Array; analysis: Analysis }>; bytes: number }>()
  return function (this: InterpreterProto, code: Uint8Array): Analysis {
    const table = this._evm._opcodeMap as object
    let cache = tables.get(table)
    if (cache === undefined) tables.set(table, (cache = { byKey: new Map(), bytes: 0 }))
    const key = codeKey(code)
    const hit = cache.byKey.get(key)
    if (hit !== undefined && sameBytes(hit.code, code)) return hit.analysis
    const analysis = original.call(this, code)
    if (cache.bytes + code.length > ANALYSED_BYTES) {
      cache.byKey.clear()
      cache.bytes = 0
    }
    cache.byKey.set(key, { code: code.slice(), analysis })
    cache.bytes += code.length
    return analysis
  }
})

/**
 * Common.isActivatedEIP is asked several times per opcode (6800 and 7864 on every step and PUSH);
 * it searches an array of ~40 EIP numbers. A table indexed by EIP number, rebuilt whenever the
 * Common replaces that array (it does on every hardfork or EIP change), answers the same.
 */
patch('EIP lookup table', Common.prototype, 'isActivatedEIP', '931ac8a66349e377', () => {
  type Fast = { _activatedEIPsCache: readonly number[]; eipTableOf?: readonly number[]; eipTable?: Uint8Array }
  return function (this: Fast, eip: number): boolean {
    const list = this._activatedEIPsCache
    if (this.eipTableOf !== list) {
      const table = new Uint8Array(Math.max(0, ...list) + 1)
      for (const e of list) table[e] = 1
      this.eipTable = table
      this.eipTableOf = list
    }
    return this.eipTable![eip] === 1
  }
})

/**
 * EVM.runInterpreter, unchanged but for the `runState` of its result: the original builds it on
 * every frame by spreading the interpreter's run state, result and environment (~45 properties)
 * into a new object, which costs more than the rest of the frame's set-up (V8 copies spreads
 * that follow another spread one property at a time; measured ~30 us a frame here). Nothing in
 * ethereumjs or this node reads it; it is now a getter building the same object when read.
 * A frame entered without runCall (no block set) takes the original path.
 */
patch('lazy runState', EVM.prototype as unknown as { runInterpreter: unknown }, 'runInterpreter', '1f4905264075376d', (original: (...args: unknown[]) => unknown) => {
  return async function runInterpreter(this: EvmInternals, message: FrameMessage, opts: { initialLogs?: unknown[] } = {}) {
    if (this._block === undefined) return original.call(this, message, opts)
    let contract = await this.stateManager.getAccount(message.to ?? createZeroAddress())
    if (!contract) contract = new Account()
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? 0n,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    }
    const interpreter = new Interpreter(this, this.stateManager, this.blockchain, env, message.gasLimit, this.journal, this.performanceLogger, this._optsCached.profiler)
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses
    const interpreterRes = await interpreter.run(message.code, opts)
    let result = interpreter._result
    let gasUsed = message.gasLimit - interpreterRes.runState.gasLeft
    if (interpreterRes.exceptionError) {
      markFault(interpreterRes.exceptionError as Halt, interpreterRes.runState as unknown as HaltState)
      const error = interpreterRes.exceptionError.error
      if (error !== EVMError.errorMessages.REVERT && error !== EVMError.errorMessages.INVALID_EOF_FORMAT) gasUsed = message.gasLimit
      result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() }
    }
    message.accessWitness?.commit()
    const final = result
    return {
      ...result,
      get runState() {
        return { ...interpreterRes.runState, ...final, ...interpreter._env }
      },
      exceptionError: interpreterRes.exceptionError,
      gas: interpreterRes.runState?.gasLeft,
      executionGasUsed: gasUsed,
      gasRefund: interpreterRes.runState.gasRefund,
      stateGasSpilled: interpreterRes.runState.stateGasSpilled,
      returnValue: result.returnValue ?? new Uint8Array(0),
    }
  }
})

/**
 * EVM._executeCall with one expression changed: the frame it hands to runInterpreter,
 * `{ ...{ codeAddress }, ...message, gasLimit }`, becomes `{ ...message, codeAddress, gasLimit }`
 * (the same properties; a Message has `_codeAddress`, never `codeAddress`). V8 copies a spread
 * that follows a spread of a fresh literal one property at a time into new hidden classes (~25 us
 * for a Message here); a spread first in its literal is cloned at once (under 1 us). The method is
 * rebuilt from its own source with that text replaced, its module's names passed in; under
 * DEBUG=ethjs (its debug loggers are not reachable) the original runs.
 */
rewrite('frame spread', EVM.prototype as unknown as { _executeCall: unknown }, '_executeCall', 'f2358d2eeecc46e1', {
  from: /\.\.\.\{ codeAddress: message\.codeAddress \},\s*\.\.\.message,\s*gasLimit,/,
  to: '...message, codeAddress: message.codeAddress, gasLimit,',
  scope: {
    EthereumJSErrorWithoutCode,
    BIGINT_0,
    OOGResult,
    activeCostPerStateByte,
    equalsBytes,
    DELEGATION_7702_FLAG,
    Account,
    createEIP7708TransferLog,
    bytesToUnprefixedHex,
    getPrecompileName,
    debug: () => undefined,
    debugGas: () => undefined,
  },
})

/**
 * Replaces a method with one built from its own source text with `from` replaced by `to`; `scope`
 * binds the module-level names the source uses. Only for an exact source (the fingerprint) in
 * which `from` occurs once. The rebuilt method runs unless the instance's DEBUG is on.
 */
function rewrite(name: string, proto: object, method: string, fingerprint: string, edit: { from: RegExp; to: string; scope: Record<string, unknown> }): void {
  patch(name, proto as Record<string, unknown>, method, fingerprint, (original: (this: { DEBUG: boolean }, ...args: unknown[]) => unknown) => {
    const source = (original as unknown as () => void).toString()
    if (source.split(edit.from).length !== 2) throw new Error(`evmPatches: ${name}: the text to replace is not in ${method} once`)
    const expression = source.replace(edit.from, edit.to).replace(new RegExp(`^(async )?${method}\\(`), `$1function ${method}(`)
    const rebuilt = new Function(...Object.keys(edit.scope), `'use strict'; return ${expression}`)(...Object.values(edit.scope)) as typeof original
    return function (this: { DEBUG: boolean }, ...args: unknown[]) {
      return (this.DEBUG ? original : rebuilt).apply(this, args)
    }
  })
}

type HaltState = { opCode?: number; stack: { _len: number; _store: bigint[] }; interpreter: { getReturnDataSize(): bigint } }

/**
 * Where the frame halted (the opcode the loop was on, the stack's height: ethereumjs checks a stack
 * before it pops, and RETURNDATACOPY's bounds before its gas), for geth's texts (exec/gethVmError.ts).
 */
function markFault(err: Halt, state: HaltState): void {
  const op = state.opCode ?? 0
  const n = state.stack._len
  const s = state.stack._store
  const returnDataOutOfBounds = op === 0x3e && err.error === EVMError.errorMessages.OUT_OF_GAS && n >= 3 && s[n - 2]! + s[n - 3]! > state.interpreter.getReturnDataSize()
  err.fault = { op, stackLen: n, returnDataOutOfBounds }
}

/** The EVM's fields runInterpreter reads (evm.js). */
type EvmInternals = {
  _block?: unknown
  _tx: { gasPrice: bigint; origin?: unknown }
  stateManager: { getAccount(a: unknown): Promise<Account | undefined> }
  blockchain: unknown
  journal: unknown
  performanceLogger: unknown
  _optsCached: { profiler?: unknown }
}
type StepMemory = { _store: Uint8Array; read(offset: number, size: number): Uint8Array }
type StepInterp = { _runState: { opCode: number; memory: StepMemory } }

/**
 * The step event of a REVERT carries its data, which ethereumjs reads before the opcode's gas is
 * charged, so a REVERT naming memory far beyond what its gas buys made a traced run allocate it (up to
 * gigabytes) or fail with a RangeError: debug_trace* answered "tracing failed: Invalid typed array
 * length" where geth traces the step's out of gas (the differential fuzzer found it). No tracer here
 * reads that data: beyond the memory the frame has, the event carries none, and the memory grows, if
 * its gas allows, when the REVERT itself runs.
 */
patch('REVERT step within memory', Interpreter.prototype as unknown as { _runStepHook: unknown }, '_runStepHook', 'b193c3bdfeabe9bb', (original: (...args: unknown[]) => Promise<void>) => {
  const within = function (this: StepMemory, offset: number, size: number): Uint8Array {
    return offset + size > this._store.length ? new Uint8Array(0) : Object.getPrototypeOf(this).read.call(this, offset, size)
  }
  return async function (this: StepInterp, ...args: unknown[]): Promise<void> {
    const { opCode, memory } = this._runState
    if (opCode !== 0xfd) return original.apply(this, args)
    memory.read = within
    try {
      return await original.apply(this, args)
    } finally {
      delete (memory as Partial<StepMemory>).read
    }
  }
})

/** The frame runInterpreter runs (a Message's fields, spread by _executeCall / _executeCreate). */
type FrameMessage = {
  to?: { bytes: Uint8Array }
  caller?: unknown
  data?: Uint8Array
  value?: bigint
  code?: unknown
  isStatic?: boolean
  isCreate?: boolean
  depth?: number
  codeAddress?: unknown
  gasRefund?: bigint
  gasLimit: bigint
  chargeCodeAccesses?: boolean
  blobVersionedHashes?: unknown[]
  accessWitness?: { commit(): void }
  createdAddresses?: Set<string>
  selfdestruct?: Map<string, unknown>
}

function codeKey(code: Uint8Array): string {
  const view = Buffer.from(code.buffer, code.byteOffset, code.length)
  if (code.length <= 64) return view.toString('latin1')
  return `${code.length}:${view.toString('latin1', 0, 32)}${view.toString('latin1', code.length - 32)}`
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length))
}
