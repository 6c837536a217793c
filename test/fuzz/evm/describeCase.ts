import { bytesToHex } from '@ethereumjs/util'
import type { EvmCase } from './evmCase.js'

/** A case as a reader reproduces it: the pre-state's accounts (code as hex), then the message. */
export function describeCase(c: EvmCase): string {
  const lines = ['pre-state:']
  for (const [address, a] of c.pre) {
    lines.push(`  0x${address}: balance ${a.balance}, nonce ${a.nonce}${a.code.length === 0 ? '' : `, code ${bytesToHex(a.code)}`}`)
    for (const [slot, value] of a.storage) lines.push(`    [0x${slot}] = 0x${value.toString(16)}`)
  }
  const m = c.message
  lines.push('message:')
  lines.push(`  caller ${bytesToHex(m.caller)}${m.origin === undefined ? '' : `, origin ${bytesToHex(m.origin)}`}, to ${m.to === undefined ? 'none (creation)' : bytesToHex(m.to)}`)
  lines.push(`  value ${m.value}, gasLimit ${m.gasLimit}, gasPrice ${m.gasPrice}, skipNonceIncrement ${m.skipNonceIncrement === true}`)
  lines.push(`  data ${bytesToHex(m.data)}`)
  for (const [address, slots] of m.accessList ?? []) lines.push(`  accessList ${bytesToHex(address)} [${slots.map((s) => bytesToHex(s)).join(', ')}]`)
  if (m.blobHashes !== undefined) lines.push(`  blobHashes ${m.blobHashes.map((h) => bytesToHex(h)).join(', ')}`)
  const b = m.block
  lines.push(`  block number ${b.number}, timestamp ${b.timestamp}, coinbase ${bytesToHex(b.coinbase)}, gasLimit ${b.gasLimit}, baseFee ${b.baseFee}, blobBaseFee ${b.blobBaseFee}`)
  return lines.join('\n')
}
