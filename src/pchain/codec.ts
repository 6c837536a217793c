/**
 * The P-Chain (PlatformVM) codec registry, vms/platformvm/txs/codec.go: 5 skipped slots (blocks), the Apricot
 * types (secp256k1fx at the AVM's IDs so shared-memory UTXOs match, then txs and stakeable.LockIn/LockOut),
 * Banff, 4 skipped slots, Durango (BaseTx = 34), Etna, Helicon. Codec version 0, 256 KiB for txs.
 */
export const PVM_TYPE_ID = {
  TransferInput: 5,
  TransferOutput: 7,
  Credential: 9,
  Input: 10,
  OutputOwners: 11,
  AddValidatorTx: 12,
  AddSubnetValidatorTx: 13,
  AddDelegatorTx: 14,
  CreateChainTx: 15,
  CreateSubnetTx: 16,
  ImportTx: 17,
  ExportTx: 18,
  AdvanceTimeTx: 19,
  RewardValidatorTx: 20,
  StakeableLockIn: 21,
  StakeableLockOut: 22,
  RemoveSubnetValidatorTx: 23,
  TransformSubnetTx: 24,
  AddPermissionlessValidatorTx: 25,
  AddPermissionlessDelegatorTx: 26,
  SignerEmpty: 27,
  ProofOfPossession: 28,
  TransferSubnetOwnershipTx: 33,
  BaseTx: 34,
  ConvertSubnetToL1Tx: 35,
  RegisterL1ValidatorTx: 36,
  SetL1ValidatorWeightTx: 37,
  IncreaseL1ValidatorBalanceTx: 38,
  DisableL1ValidatorTx: 39,
  AddAutoRenewedValidatorTx: 40,
  SetAutoRenewedValidatorConfigTx: 41,
  RewardAutoRenewedValidatorTx: 42,
} as const
export type PVMTypeID = (typeof PVM_TYPE_ID)[keyof typeof PVM_TYPE_ID]

export const PVM_GO_TYPE_NAMES: Readonly<Record<number, string>> = {
  5: '*secp256k1fx.TransferInput',
  7: '*secp256k1fx.TransferOutput',
  9: '*secp256k1fx.Credential',
  10: '*secp256k1fx.Input',
  11: '*secp256k1fx.OutputOwners',
  12: '*txs.AddValidatorTx',
  13: '*txs.AddSubnetValidatorTx',
  14: '*txs.AddDelegatorTx',
  15: '*txs.CreateChainTx',
  16: '*txs.CreateSubnetTx',
  17: '*txs.ImportTx',
  18: '*txs.ExportTx',
  19: '*txs.AdvanceTimeTx',
  20: '*txs.RewardValidatorTx',
  21: '*stakeable.LockIn',
  22: '*stakeable.LockOut',
  23: '*txs.RemoveSubnetValidatorTx',
  24: '*txs.TransformSubnetTx',
  25: '*txs.AddPermissionlessValidatorTx',
  26: '*txs.AddPermissionlessDelegatorTx',
  27: '*signer.Empty',
  28: '*signer.ProofOfPossession',
  33: '*txs.TransferSubnetOwnershipTx',
  34: '*txs.BaseTx',
  35: '*txs.ConvertSubnetToL1Tx',
  36: '*txs.RegisterL1ValidatorTx',
  37: '*txs.SetL1ValidatorWeightTx',
  38: '*txs.IncreaseL1ValidatorBalanceTx',
  39: '*txs.DisableL1ValidatorTx',
  40: '*txs.AddAutoRenewedValidatorTx',
  41: '*txs.SetAutoRenewedValidatorConfigTx',
  42: '*txs.RewardAutoRenewedValidatorTx',
}

const TX_TYPES = [12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24, 25, 26, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42]

export const PVM_INTERFACES = {
  unsignedTx: { name: 'txs.UnsignedTx', implementors: TX_TYPES },
  transferableIn: { name: 'avax.TransferableIn', implementors: [5, 21] },
  transferableOut: { name: 'avax.TransferableOut', implementors: [7, 22] },
  /** what a UTXO's Out holds (verify.State) */
  state: { name: 'verify.State', implementors: [7, 11, 22] },
  /** the credential slot (verify.Verifiable); only secp256k1fx.Credential (9) is decoded further */
  credential: { name: 'verify.Verifiable', implementors: [5, 7, 9, 10, 11, 21, 22] },
} as const
