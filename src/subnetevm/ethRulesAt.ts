/**
 * geth's rules of a subnet-evm block (libevm params/config.go Rules, called by subnet-evm with
 * isMerge = true, params.IsMergeTODO): which Ethereum forks the EVM runs. After SetEthUpgrades
 * every block fork through London is at 0, Shanghai at Durango and Cancun at Etna; Prague and
 * Verkle stay off unless a genesis names them.
 */
import type { EthForkConfig } from './chainConfig.js'
import { isForked } from './upgradesAt.js'

/** libevm's Rules; eth_getActiveRulesAt's `ethRules` writes these names capitalised (ChainID, IsHomestead, …). */
export interface EthRules {
  chainId: bigint
  isHomestead: boolean
  isEIP150: boolean
  isEIP155: boolean
  isEIP158: boolean
  isByzantium: boolean
  isConstantinople: boolean
  isPetersburg: boolean
  isIstanbul: boolean
  isBerlin: boolean
  isLondon: boolean
  isMerge: boolean
  isShanghai: boolean
  isCancun: boolean
  isPrague: boolean
  isVerkle: boolean
}

/** The rules of block `number` at `time` (seconds). */
export function ethRulesAt(config: { chainId: bigint; eth: EthForkConfig }, number: bigint, time: bigint | number): EthRules {
  const e = config.eth
  const at = (fork: bigint | undefined) => isForked(fork, number)
  const isLondon = at(e.londonBlock)
  // isMerge is passed as true and kept only when London is on.
  const merged = isLondon
  return {
    chainId: config.chainId,
    isHomestead: at(e.homesteadBlock),
    isEIP150: at(e.eip150Block),
    isEIP155: at(e.eip155Block),
    isEIP158: at(e.eip158Block),
    isByzantium: at(e.byzantiumBlock),
    isConstantinople: at(e.constantinopleBlock),
    isPetersburg: at(e.petersburgBlock) || (e.petersburgBlock === undefined && at(e.constantinopleBlock)),
    isIstanbul: at(e.istanbulBlock),
    isBerlin: at(e.berlinBlock),
    isLondon,
    isMerge: merged,
    isShanghai: merged && isForked(e.shanghaiTime, time),
    isCancun: merged && isForked(e.cancunTime, time),
    isPrague: merged && isForked(e.pragueTime, time),
    isVerkle: merged && isForked(e.verkleTime, time),
  }
}
