/** A transaction's interchain messages: the Warp messages it sent, the Teleporter messages it sent or delivered, each with the other side. */
import { cb58Encode, hexToBytes } from './bytes.js'
import { chainName, type Ctx } from './context.js'
import { fields, h, link, mono, section } from './dom.js'
import { WARP_PRECOMPILE } from './precompiles.js'
import { EvmApi } from './rpc.js'

/** keccak256 of the events' signatures (ITeleporterMessenger v1.0.0; coreth's IWarpMessenger). */
const SEND_CROSS_CHAIN_MESSAGE = '0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8'
const RECEIVE_CROSS_CHAIN_MESSAGE = '0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34'
const SEND_WARP_MESSAGE = '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d'

/** The route of a transaction on any of the node's chains. */
function txRoute(ctx: Ctx, path: string, hash: string): string {
  return path === ctx.doc.chains[0]!.path ? `/tx/${hash}` : `/chain/${encodeURIComponent(path)}/tx/${hash}`
}

/** The transaction on `path` that logged `topic` for this message ID from `messenger`, if the chain is the node's and has one. */
async function counterpart(ctx: Ctx, chainID: string, messenger: string, topic: string, messageID: string): Promise<{ path: string; hash?: string } | undefined> {
  const chain = ctx.doc.chains.find((c) => c.id === chainID)
  if (chain === undefined) return undefined
  const logs: any[] = await new EvmApi(chain.path).call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: messenger, topics: [topic, messageID] }])
  return { path: chain.path, ...(logs.length > 0 && { hash: logs[logs.length - 1].transactionHash }) }
}

/** The "Interchain messages" section of a mined transaction, or nothing when it has none. */
export async function icmSection(ctx: Ctx, logs: readonly any[]): Promise<HTMLElement[]> {
  const items: HTMLElement[] = []
  for (const l of logs) {
    const topic = (l.topics[0] ?? '').toLowerCase()
    if (topic === SEND_WARP_MESSAGE && l.address.toLowerCase() === WARP_PRECOMPILE && l.topics.length === 3) {
      items.push(
        h(
          'li',
          { class: 'warp-message' },
          fields([
            ['Warp message', mono(cb58Encode(hexToBytes(l.topics[2])))],
            ['Sender', link(ctx.r(`/address/0x${l.topics[1].slice(26)}`), mono(`0x${l.topics[1].slice(26)}`))],
          ]),
        ),
      )
    }
    if ((topic === SEND_CROSS_CHAIN_MESSAGE || topic === RECEIVE_CROSS_CHAIN_MESSAGE) && l.topics.length >= 3) {
      const sent = topic === SEND_CROSS_CHAIN_MESSAGE
      const messageID: string = l.topics[1]
      const other = cb58Encode(hexToBytes(l.topics[2]))
      const found = await counterpart(ctx, other, l.address, sent ? RECEIVE_CROSS_CHAIN_MESSAGE : SEND_CROSS_CHAIN_MESSAGE, messageID)
      const otherTx = found?.hash !== undefined ? link(txRoute(ctx, found.path, found.hash), mono(found.hash)) : undefined
      const status = sent
        ? found === undefined
          ? 'to a chain this node does not serve'
          : otherTx === undefined
            ? 'not delivered yet'
            : h('span', {}, 'delivered by ', otherTx)
        : otherTx === undefined
          ? 'sent from a chain this node does not serve'
          : h('span', {}, 'sent by ', otherTx)
      items.push(
        h(
          'li',
          { class: sent ? 'icm-sent' : 'icm-received' },
          fields([
            ['Teleporter message', mono(messageID)],
            [sent ? 'To chain' : 'From chain', chainName(ctx.doc, other)],
            ['Messenger', link(ctx.r(`/address/${l.address}`), mono(l.address))],
            [sent ? 'Delivery' : 'Source', h('span', { class: 'icm-status' }, status)],
          ]),
        ),
      )
    }
  }
  return items.length === 0 ? [] : [section('Interchain messages', h('ol', { class: 'logs' }, items))]
}
