/** The accounts a generated case plays with (lower-case hex without 0x): few, so calls meet state. */
export const ACTORS = {
  caller: '10000000000000000000000000000000000000c1',
  /** Accounts that hold generated code. */
  contracts: ['a0000000000000000000000000000000000000aa', 'b0000000000000000000000000000000000000bb', 'c0000000000000000000000000000000000000cc'],
  /** An account with a balance and no code. */
  holder: 'e0000000000000000000000000000000000000ee',
  /** Never in the pre-state. */
  nobody: 'f0000000000000000000000000000000000000ff',
  /**
   * The precompiles of Cancun and Granite's P256VERIFY (0x100), but 0xa: the node gives ethereumjs no
   * KZG library, so its point evaluation throws 'kzg not initialized' instead of answering.
   */
  precompiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0x100].map((n) => n.toString(16).padStart(40, '0')),
} as const

/** Every address a generated program may name. */
export const ADDRESSES: readonly string[] = [ACTORS.caller, ...ACTORS.contracts, ACTORS.holder, ACTORS.nobody, ...ACTORS.precompiles, '000000000000000000000000000000000000000b']
