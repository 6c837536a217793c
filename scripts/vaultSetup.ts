/** The contracts the send benchmark and the estimate count use (test/fixtures/contracts/Vault.sol): a token, a vault allowed to move it. */
import { Interface } from 'ethers'
import contracts from '../test/fixtures/contracts.json' with { type: 'json' }

export const iface = (name: 'TestToken' | 'Vault') => new Interface(contracts.contracts[name].abi as never)

/** A deployment of the fixture token with `supply` to its deployer. */
export const tokenDeployment = (supply: bigint) => contracts.contracts.TestToken.bytecode + iface('TestToken').encodeDeploy([supply]).slice(2)

/** Deploys the token and the vault with `send` (which answers the receipt) and lets the vault move the sender's tokens. */
export async function deployVault(send: (tx: { to?: string; data: string }) => Promise<{ contractAddress: string }>): Promise<{ token: string; vault: string }> {
  const token = (await send({ data: tokenDeployment(10n ** 24n) })).contractAddress
  const vault = (await send({ data: contracts.contracts.Vault.bytecode + iface('Vault').encodeDeploy([token]).slice(2) })).contractAddress
  await send({ to: token, data: iface('TestToken').encodeFunctionData('approve', [vault, 10n ** 24n]) })
  return { token, vault }
}
