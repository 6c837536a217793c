/**
 * The fields of a parent header subnet-evm's header rules read (subnet-evm
 * plugin/evm/customtypes/header_ext.go HeaderExtra and geth's Header). Absent optional fields are
 * Go's nil: a header from before the upgrade that added them.
 */
export interface ParentHeader {
  number: bigint
  /** Seconds. */
  timestamp: bigint
  /** Granite: the block's time in milliseconds (timestamp = timeMilliseconds / 1000). */
  timeMilliseconds?: bigint
  gasLimit: bigint
  gasUsed: bigint
  /** SubnetEVM: the EIP-1559 base fee in wei. */
  baseFee?: bigint
  /** SubnetEVM: the fee window (80 bytes), then after Durango the predicate results. */
  extraData: Uint8Array
  /** SubnetEVM: the gas the block's tips had to buy (0 from Granite). */
  blockGasCost?: bigint
  /** Granite: the ACP-226 minimum delay excess. */
  minDelayExcess?: bigint
}

/** The header's time in ms: timeMilliseconds when set, else timestamp · 1000 (header_ext.go HeaderTimeMilliseconds). */
export function headerTimeMilliseconds(header: Pick<ParentHeader, 'timestamp' | 'timeMilliseconds'>): bigint {
  return header.timeMilliseconds ?? header.timestamp * 1000n
}
