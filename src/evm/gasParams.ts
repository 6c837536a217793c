import type { Common } from '@ethereumjs/common'
import { getOpcodesForHF } from '@ethereumjs/evm'

/** The gas schedule the interpreter charges, read once from a Common (numbers: every figure is far below 2^53). */
export interface EvmGas {
  /** static fee of each opcode byte, as ethereumjs's opcode table has it */
  fee: Int32Array
  /** 1 for a byte that is an opcode of the fork */
  valid: Uint8Array
  memory: number
  quadCoefficientDiv: number
  copy: number
  keccakWord: number
  expByte: number
  logTopic: number
  logData: number
  coldAccount: number
  warmRead: number
  coldSload: number
  sstoreSentry: number
  sstoreNoop: number
  sstoreInit: number
  sstoreClean: number
  sstoreDirty: number
  sstoreClearRefund: number
  sstoreInitRefund: number
  sstoreCleanRefund: number
  sstoreReset: number
  callValueTransfer: number
  callNewAccount: number
  callStipend: number
  createData: number
  initCodeWord: number
  maxCodeSize: number
  maxInitCodeSize: number
  stackLimit: number
  selfdestructRefund: number
}

/** `common` must hold the EVM's parameters (paramsEVM), as the EVM's constructor gives it. */
export function readGas(common: Common): EvmGas {
  const p = (name: string) => Number(common.param(name))
  const fee = new Int32Array(256)
  const valid = new Uint8Array(256)
  for (const [code, op] of getOpcodesForHF(common).opcodes) {
    if (op.name === 'INVALID') continue
    fee[code] = op.fee
    valid[code] = 1
  }
  return {
    fee,
    valid,
    memory: p('memoryGas'),
    quadCoefficientDiv: p('quadCoefficientDivGas'),
    copy: p('copyGas'),
    keccakWord: p('keccak256WordGas'),
    expByte: p('expByteGas'),
    logTopic: p('logTopicGas'),
    logData: p('logDataGas'),
    coldAccount: p('coldaccountaccessGas'),
    warmRead: p('warmstoragereadGas'),
    coldSload: p('coldsloadGas'),
    sstoreSentry: p('sstoreSentryEIP2200Gas'),
    sstoreNoop: p('sstoreNoopEIP2200Gas'),
    sstoreInit: p('sstoreInitEIP2200Gas'),
    sstoreClean: p('sstoreCleanEIP2200Gas'),
    sstoreDirty: p('sstoreDirtyEIP2200Gas'),
    sstoreClearRefund: p('sstoreClearRefundEIP2200Gas'),
    sstoreInitRefund: p('sstoreInitRefundEIP2200Gas'),
    sstoreCleanRefund: p('sstoreCleanRefundEIP2200Gas'),
    sstoreReset: p('sstoreResetGas'),
    callValueTransfer: p('callValueTransferGas'),
    callNewAccount: p('callNewAccountGas'),
    callStipend: p('callStipendGas'),
    createData: p('createDataGas'),
    initCodeWord: p('initCodeWordGas'),
    maxCodeSize: p('maxCodeSize'),
    maxInitCodeSize: p('maxInitCodeSize'),
    stackLimit: p('stackLimit'),
    selfdestructRefund: p('selfdestructRefundGas'),
  }
}
