import { RLP } from '@ethereumjs/rlp'
import { z } from 'zod'
import { encodeBlock, headerFields } from '../engine/chain/block.js'
import { encodeConsensusReceipt } from '../engine/chain/receipt.js'
import { NotFoundError } from '../engine/base/errors.js'
import type { TraceOptions } from '../engine/tracing/config.js'
import type { TraceCallOptions } from '../engine/tracing/trace.js'
import { BlockOverrides } from '../rpc/blockOverrides.js'
import { hex, rawTxHex } from '../rpc/format.js'
import { BlockRef, BlockTag, CallRequest, Hash32, StateOverride } from '../rpc/schemas.js'
import { type MethodTable, type RpcContext, method } from '../rpc/types.js'

/** The raw-data methods of geth's DebugAPI (internal/ethapi/api.go): consensus encodings. */
export function debugRawMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return {
    /** Handler for `debug_getRawHeader`: RLP of the header (coreth's field layout). */
    debug_getRawHeader: method(z.tuple([BlockRef]), ([ref]) => hex(RLP.encode(headerFields(engine.resolveBlock(ref).header)))),
    /** Handler for `debug_getRawBlock`: RLP of the block ([header, txs, uncles, version, extData] as coreth). */
    debug_getRawBlock: method(z.tuple([BlockRef]), ([ref]) => {
      const block = engine.resolveBlock(ref)
      return hex(encodeBlock(block.header, block.txs, block.extData))
    }),
    /** Handler for `debug_getRawReceipts`: each receipt's EIP-2718 consensus encoding. */
    debug_getRawReceipts: method(z.tuple([BlockRef]), ([ref]) => engine.receipts(engine.resolveBlock(ref)).map((r) => hex(encodeConsensusReceipt(r)))),
    /** Handler for `debug_getRawTransaction`: the transaction's canonical encoding; "0x" when unknown (geth). */
    debug_getRawTransaction: method(z.tuple([Hash32]), ([hash]) => rawTxHex(engine.transaction(hash))),
  }
}

/** The JSON type name Go's encoding/json reports for a value. */
function goType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'boolean') return 'bool'
  return typeof v === 'object' ? 'object' : typeof v
}

/** One TraceConfig member decoded as Go does, with its `json: cannot unmarshal` text. */
function goField<T>(struct: string, field: string, goName: string, ok: (v: unknown) => v is T) {
  return z
    .unknown()
    .transform((v, ctx): T | undefined => {
      if (v === undefined || v === null) return undefined
      if (ok(v)) return v
      ctx.addIssue({ code: 'custom', message: `json: cannot unmarshal ${goType(v)} into Go struct field ${struct}.${field} of type ${goName}`, input: v })
      return z.NEVER
    })
    .optional()
}

const isBool = (v: unknown): v is boolean => typeof v === 'boolean'
const isString = (v: unknown): v is string => typeof v === 'string'
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)

function traceConfigFields(struct: string) {
  return {
    disableStorage: goField(struct, 'disableStorage', 'bool', isBool),
    disableStack: goField(struct, 'disableStack', 'bool', isBool),
    enableMemory: goField(struct, 'enableMemory', 'bool', isBool),
    enableReturnData: goField(struct, 'enableReturnData', 'bool', isBool),
    limit: goField(struct, 'limit', 'int', isInt),
    tracer: goField(struct, 'tracer', 'string', isString),
    timeout: goField(struct, 'timeout', 'string', isString),
    tracerConfig: z.unknown().optional(),
  }
}

type TraceConfigInput = { [K in keyof ReturnType<typeof traceConfigFields>]?: z.output<ReturnType<typeof traceConfigFields>[K]> }

function traceOptions(c: TraceConfigInput | null | undefined): TraceOptions {
  return {
    logger: {
      disableStorage: c?.disableStorage ?? false,
      disableStack: c?.disableStack ?? false,
      enableMemory: c?.enableMemory ?? false,
      enableReturnData: c?.enableReturnData ?? false,
      limit: c?.limit ?? 0,
    },
    tracer: c?.tracer,
    timeout: c?.timeout,
    tracerConfig: c?.tracerConfig,
  }
}

/** geth tracers.TraceConfig (struct logger options embedded, tracer, timeout, tracerConfig). */
const TraceConfig = z
  .object(traceConfigFields('TraceConfig'), {
    error: (i) => `json: cannot unmarshal ${goType(i.input)} into Go value of type tracers.TraceConfig`,
  })
  .nullish()

/** geth tracers.TraceCallConfig: TraceConfig plus stateOverrides and blockOverrides. */
const TraceCallConfig = z
  .object(
    {
      ...traceConfigFields('TraceCallConfig'),
      stateOverrides: StateOverride.nullish(),
      blockOverrides: BlockOverrides.nullish(),
    },
    { error: (i) => `json: cannot unmarshal ${goType(i.input)} into Go value of type tracers.TraceCallConfig` },
  )
  .nullish()

/** geth's tracing API (eth/tracers/api.go), served by coreth under `debug-tracer`. */
export function debugTraceMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return {
    /** Handler for `debug_traceTransaction`: re-executes a mined transaction under a tracer. */
    debug_traceTransaction: method(z.tuple([Hash32, TraceConfig.optional()]), ([hash, cfg], _call, _origin, cancel) => engine.traceTransaction(hash, traceOptions(cfg), cancel)),
    /** Handler for `debug_traceCall`: an eth_call under a tracer, with state and block overrides. */
    debug_traceCall: method(z.tuple([CallRequest, BlockRef, TraceCallConfig.optional()]), ([req, ref, cfg], _call, _origin, cancel) => {
      const opts: TraceCallOptions = traceOptions(cfg)
      if (cfg?.stateOverrides != null) opts.stateOverrides = cfg.stateOverrides
      if (cfg?.blockOverrides != null) opts.blockOverrides = cfg.blockOverrides
      return engine.traceCall(req, ref, opts, cancel)
    }),
    /** Handler for `debug_traceBlockByNumber`: every transaction of the block, `[{txHash, result}]`. */
    debug_traceBlockByNumber: method(z.tuple([BlockTag, TraceConfig.optional()]), ([ref, cfg], _call, _origin, cancel) => {
      const block = engine.findBlock(ref)
      if (block === undefined) throw new NotFoundError(`block #${String(ref)} not found`)
      return engine.traceBlock(block, traceOptions(cfg), cancel)
    }),
    /** Handler for `debug_traceBlockByHash`. */
    debug_traceBlockByHash: method(z.tuple([Hash32, TraceConfig.optional()]), ([hash, cfg], _call, _origin, cancel) => {
      const block = engine.findBlock({ blockHash: hash })
      if (block === undefined) throw new NotFoundError(`block ${hex(hash)} not found`)
      return engine.traceBlock(block, traceOptions(cfg), cancel)
    }),
  }
}
