import { isIP } from 'node:net'

const CACHE_LIMIT = 256

/** Host part of a Host header or URL host: `[::1]:9650` -> `::1`, `Example.com:80` -> `example.com`. */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    return (end === -1 ? host.slice(1) : host.slice(1, end)).toLowerCase()
  }
  const colon = host.indexOf(':')
  // More than one colon without brackets is not host:port; compare it whole.
  if (colon === -1 || host.indexOf(':', colon + 1) !== -1) return host.toLowerCase()
  return host.slice(0, colon).toLowerCase()
}

/**
 * Host allow-list against DNS rebinding (docs/SECURITY.md, N2; geth: node/rpcstack.go virtualHostHandler):
 * IP literals, `localhost` and the configured names pass; `*` allows any. A request without a
 * Host header (HTTP/1.0, not a browser) passes, as in geth. Results are cached per header value.
 */
export function createHostCheck(allowed: readonly string[] = []): (host: string | undefined) => boolean {
  const names = new Set(allowed.map((h) => h.toLowerCase()))
  const any = names.has('*')
  const cache = new Map<string, boolean>()
  return (host) => {
    if (host === undefined || host === '' || any) return true
    let ok = cache.get(host)
    if (ok !== undefined) return ok
    const name = hostnameOf(host)
    ok = isIP(name) !== 0 || name === 'localhost' || names.has(name)
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(host, ok)
    return ok
  }
}

function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name === '::1') return true
  return isIP(name) === 4 && name.startsWith('127.')
}

/**
 * WebSocket Origin check against cross-site WebSocket hijacking (docs/SECURITY.md, N6; geth: rpc/websocket.go
 * wsHandshakeValidator): no Origin (not a browser) and loopback origins pass, plus the configured
 * origins (exact `scheme://host[:port]`, or `*`).
 */
export function createOriginCheck(allowed: readonly string[] = []): (origin: string | undefined) => boolean {
  const origins = new Set(allowed.map((o) => o.toLowerCase()))
  const any = origins.has('*')
  return (origin) => {
    if (origin === undefined || any) return true
    const lower = origin.toLowerCase()
    if (origins.has(lower)) return true
    let hostname: string
    try {
      hostname = new URL(lower).hostname
    } catch {
      return false
    }
    return isLoopbackName(hostname.startsWith('[') ? hostname.slice(1, -1) : hostname)
  }
}
