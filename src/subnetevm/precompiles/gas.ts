/*
 * The precompiles' gas (subnet-evm precompile/contract/utils.go and each contract's contract.go and
 * event.go): a slot read or write at a fixed price, an event at LOG's price plus, for some, the reads
 * it needs.
 */

const WRITE_SLOT = 20_000n
const READ_SLOT = 5_000n
/** params LogGas, LogTopicGas, LogDataGas. */
const LOG = 375n
const LOG_TOPIC = 375n
const LOG_DATA_BYTE = 8n
const WORD = 32n
/** The fee config's eight fields (subnet-evm precompile/contracts/feemanager/contract.go numFeeConfigField). */
export const FEE_CONFIG_FIELDS = 8n

export const GAS = Object.freeze({
  /** setAdmin, setEnabled, setManager, setNone. */
  modifyAllowList: WRITE_SLOT,
  readAllowList: READ_SLOT,
  /** RoleSet: 4 topics and one word of data. */
  allowListEvent: LOG + LOG_TOPIC * 4n + LOG_DATA_BYTE * WORD,

  mintNativeCoin: 30_000n,
  /** NativeCoinMinted: 3 topics and one word of data. */
  nativeCoinMintedEvent: LOG + LOG_TOPIC * 3n + LOG_DATA_BYTE * WORD,

  /** Eight fields and the last-changed block. */
  setFeeConfig: WRITE_SLOT * (FEE_CONFIG_FIELDS + 1n),
  getFeeConfig: READ_SLOT * FEE_CONFIG_FIELDS,
  getFeeConfigLastChangedAt: READ_SLOT,
  /** FeeConfigChanged: reading the old config, 2 topics, the old and new configs as data. */
  feeConfigChangedEvent: READ_SLOT * FEE_CONFIG_FIELDS + LOG + LOG_TOPIC * 2n + 2n * WORD * FEE_CONFIG_FIELDS * LOG_DATA_BYTE,

  /** allowFeeRecipients, disableRewards, setRewardAddress: a slot written and the caller's role read. */
  allowFeeRecipients: WRITE_SLOT + READ_SLOT,
  disableRewards: WRITE_SLOT + READ_SLOT,
  setRewardAddress: WRITE_SLOT + READ_SLOT,
  areFeeRecipientsAllowed: READ_SLOT,
  currentRewardAddress: READ_SLOT,
  /** FeeRecipientsAllowed and RewardsDisabled: 2 topics. */
  feeRecipientsAllowedEvent: LOG + LOG_TOPIC * 2n,
  rewardsDisabledEvent: LOG + LOG_TOPIC * 2n,
  /** RewardAddressChanged: 4 topics and the read of the old address. */
  rewardAddressChangedEvent: LOG + LOG_TOPIC * 4n + READ_SLOT,
})
