import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ExplorerAssets } from './explorerAssets.js'

/**
 * Everything the explorer may load comes from the node itself: scripts, styles, images and fetch/WebSocket
 * targets are 'self' only (CSP Level 3 matches ws: to the page's own host and port), nothing inline, no
 * frames, no forms (docs/EXPLORER.md, "Offline").
 */
export const EXPLORER_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** What the explorer's page reads besides the public APIs (docs/API.md, "Explorer"). */
export interface ExplorerOptions {
  readonly assets: ExplorerAssets
  /** /explorer/chains.json: the network and the EVM chains the chain switch offers. */
  chains(): unknown
  /** /explorer/key.json?chain=&address=: the key behind an address, from the chain's recent signatures. */
  key(chain: string, address: string): unknown
}

const JSON_CT = 'application/json; charset=utf-8'

function secured(reply: FastifyReply): FastifyReply {
  return reply.header('content-security-policy', EXPLORER_CSP).header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').header('cache-control', 'no-cache')
}

/** GET / and /explorer redirect to /explorer/, which serves the page, its files and two small JSON documents. */
export function registerExplorer(fastify: FastifyInstance, opts: ExplorerOptions): void {
  const { files, missing } = opts.assets
  const toPage = (_req: FastifyRequest, reply: FastifyReply): void => {
    reply.redirect('/explorer/', 302)
  }
  fastify.get('/', toPage)
  fastify.get('/explorer', toPage)
  fastify.get('/explorer/chains.json', (_req, reply) => {
    secured(reply).header('content-type', JSON_CT).send(JSON.stringify(opts.chains()))
  })
  fastify.get('/explorer/key.json', (req: FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>, reply) => {
    const { chain, address } = req.query
    const body = typeof chain === 'string' && typeof address === 'string' ? opts.key(chain, address) : { error: 'chain and address are required' }
    secured(reply).header('content-type', JSON_CT).send(JSON.stringify(body))
  })
  fastify.get('/explorer/*', (req: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    const name = req.params['*']
    const file = missing !== undefined && name === '' ? undefined : files.get(name)
    if (file === undefined) {
      const text = missing !== undefined && name === '' ? `${missing}\n` : '404 page not found\n'
      secured(reply)
        .code(missing !== undefined && name === '' ? 503 : 404)
        .header('content-type', 'text/plain; charset=utf-8')
        .send(text)
      return
    }
    secured(reply).header('content-type', file.contentType).send(file.body)
  })
}
