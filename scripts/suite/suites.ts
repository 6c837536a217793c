/** A widely used Hardhat project whose own test suite `npm run suite:<name>` runs, pinned to one commit. */
export interface SuiteDef {
  name: string
  title: string
  /** Where the project is cloned from (`--source` picks another URL or a local clone). */
  repository: string
  commit: string
  /** The solc version its config compiles with (installed from npm when Hardhat cannot download it). */
  solc: string
  license: string
  /** anvil's flags for what the project's own Hardhat network config asks of `hardhat node`. */
  anvilArgs: string[]
}

export const SUITES: Record<string, SuiteDef> = {
  openzeppelin: {
    name: 'openzeppelin',
    title: 'OpenZeppelin Contracts v5.3.0 (Hardhat 2.22, ethers 6, hardhat-network-helpers 1.0.9, chai matchers)',
    repository: 'https://github.com/OpenZeppelin/openzeppelin-contracts.git',
    commit: 'e4f70216d759d8e6a64144a9e1f7bbeed78e7079',
    solc: '0.8.24',
    license: 'MIT',
    // hardhat.config.js: hardfork cancun (its EVM target), allowUnlimitedContractSize (anvil has no RIP-7212 switch outside its optimism mode).
    anvilArgs: ['--hardfork', 'cancun', '--disable-code-size-limit'],
  },
}
