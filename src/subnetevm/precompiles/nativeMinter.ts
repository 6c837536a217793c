import { addressOfWord, addressWord, eventTopic, formatAddress, selectorOf, unpackWords, word } from './abi.js'
import { allowListFunctions } from './allowList.js'
import { ERR_OUT_OF_GAS, ERR_WRITE_PROTECTION, type FunctionContext, type FunctionOutcome, type PrecompileFunction } from './contract.js'
import { GAS } from './gas.js'
import { NATIVE_MINTER_ADDRESS } from './modules.js'
import { isEnabledRole, roleOf } from './roles.js'

/*
 * The native minter (subnet-evm precompile/contracts/nativeminter/contract.go, event.go): an
 * Enabled, Manager or Admin caller mints native coin to any address; from Durango it logs
 * NativeCoinMinted and accepts extra input bytes.
 */

/** NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount). */
export const NATIVE_COIN_MINTED_TOPIC = eventTopic('NativeCoinMinted(address,address,uint256)')

async function mintNativeCoin(ctx: FunctionContext): Promise<FunctionOutcome> {
  if (!ctx.gas.charge(GAS.mintNativeCoin)) return { error: ERR_OUT_OF_GAS }
  if (ctx.readOnly) return { error: ERR_WRITE_PROTECTION }
  // Before Durango the input is exactly an address and an amount.
  if (!ctx.durango && ctx.input.length !== 64) return { error: `invalid input length for minting: ${ctx.input.length}` }
  const unpacked = unpackWords(ctx.input, 2)
  if ('error' in unpacked) return { error: `failed to unpack input: ${unpacked.error}` }
  const to = addressOfWord(unpacked.words[0]!)
  const amount = unpacked.words[1]!
  if (!isEnabledRole(await roleOf(ctx.state, NATIVE_MINTER_ADDRESS, ctx.caller))) return { error: `non-enabled cannot mint: ${formatAddress(ctx.caller)}` }
  const logs = []
  if (ctx.durango) {
    if (!ctx.gas.charge(GAS.nativeCoinMintedEvent)) return { error: ERR_OUT_OF_GAS }
    logs.push({ address: NATIVE_MINTER_ADDRESS, topics: [NATIVE_COIN_MINTED_TOPIC, addressWord(ctx.caller), addressWord(to)], data: word(amount) })
  }
  // CreateAccount when absent, then AddBalance: addBalance does both.
  await ctx.state.addBalance(to, amount)
  return { returnData: new Uint8Array(0), logs }
}

export const NATIVE_MINTER_FUNCTIONS: readonly PrecompileFunction[] = [...allowListFunctions(NATIVE_MINTER_ADDRESS), { selector: selectorOf('mintNativeCoin(address,uint256)'), run: mintNativeCoin }]
