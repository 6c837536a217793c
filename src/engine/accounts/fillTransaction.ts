/**
 * One transaction filled from a request, as geth does for eth_fillTransaction, eth_signTransaction,
 * eth_sendTransaction and their personal_ forms (geth: internal/ethapi/transaction_args.go setDefaults,
 * setFeeDefaults and ToTransaction; coreth: internal/ethapi/transaction_args.go for the fee defaults).
 */
import type { Common } from '@ethereumjs/common'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { EngineError } from '../base/errors.js'
import type { BlockRef, CallRequest } from '../base/types.js'
import type { FeeOracle } from '../prices/feeOracle.js'

/** What filling a transaction reads of the engine (src/engine/engine.ts serves it). */
export interface FillSource {
  readonly chainId: bigint
  readonly txCommon: Common
  readonly fees: Pick<FeeOracle, 'suggestTipCap' | 'nextBaseFee'>
  poolNonce(sender: Uint8Array): Promise<bigint>
  estimateGas(req: CallRequest, ref: BlockRef | undefined): Promise<bigint>
}

const ZERO_ADDRESS = new Uint8Array(20)

/** geth hexutil.Big in errors' %v: 0x-hex. */
const big = (v: bigint): string => '0x' + v.toString(16)

/**
 * setDefaults then ToTransaction: fees (coreth's defaults: tip = the suggested tip, fee cap = tip + 2 x the
 * next base fee), value, nonce (the pool's next one for `from`), the gas estimate, the chain ID; checked in
 * geth's order with geth's texts. The type is 1559 with a fee cap, 2930 with an access list, legacy otherwise.
 */
export async function fillTransaction(engine: FillSource, req: CallRequest): Promise<TypedTransaction> {
  const from = req.from ?? ZERO_ADDRESS
  let { gasPrice, maxFeePerGas, maxPriorityFeePerGas } = req
  if (gasPrice === undefined) {
    if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined) {
      if (maxFeePerGas === 0n) throw new EngineError('maxFeePerGas must be non-zero')
    } else {
      maxPriorityFeePerGas ??= engine.fees.suggestTipCap()
      maxFeePerGas ??= maxPriorityFeePerGas + 2n * engine.fees.nextBaseFee()
    }
    if (maxFeePerGas < maxPriorityFeePerGas) throw new EngineError(`maxFeePerGas (${big(maxFeePerGas)}) < maxPriorityFeePerGas (${big(maxPriorityFeePerGas)})`)
  } else if (gasPrice === 0n) {
    throw new EngineError('gasPrice must be non-zero after london fork')
  }
  const value = req.value ?? 0n
  // geth GetPoolNonce; read without the pending-nonce guard (that is for clients' eth_getTransactionCount caches).
  const nonce = req.nonce ?? (await engine.poolNonce(from))
  const input = req.input ?? new Uint8Array()
  const to = req.to ?? undefined
  if (to === undefined && input.length === 0) throw new EngineError('contract creation without any data provided')
  // The caller's own fee fields go into the estimate, as geth's callArgs; the defaults picked above are for
  // the next block (ACP-176 fees fall with time), which the head's context may not accept.
  const estimateReq: CallRequest = { from, value, input }
  if (to !== undefined) estimateReq.to = to
  if (req.gasPrice !== undefined) estimateReq.gasPrice = req.gasPrice
  if (req.maxFeePerGas !== undefined) estimateReq.maxFeePerGas = req.maxFeePerGas
  if (req.maxPriorityFeePerGas !== undefined) estimateReq.maxPriorityFeePerGas = req.maxPriorityFeePerGas
  if (req.accessList !== undefined) estimateReq.accessList = req.accessList
  const gas = req.gas ?? (await engine.estimateGas(estimateReq, 'pending'))
  if (req.chainId !== undefined && req.chainId !== engine.chainId) {
    throw new EngineError(`chainId does not match node's (have=${req.chainId}, want=${engine.chainId})`)
  }
  const accessList = (req.accessList ?? []).map((i) => [i.address, i.storageKeys]) as never
  const base = { nonce, gasLimit: gas, to, value, data: input, chainId: engine.chainId }
  const common = engine.txCommon
  if (maxFeePerGas !== undefined) return createTx({ ...base, type: 2, maxFeePerGas, maxPriorityFeePerGas: maxPriorityFeePerGas!, accessList }, { common })
  if (req.accessList !== undefined) return createTx({ ...base, type: 1, gasPrice: gasPrice!, accessList }, { common })
  return createTx({ ...base, type: 0, gasPrice: gasPrice! }, { common })
}
